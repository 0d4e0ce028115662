package dev.audioengine.audio;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Picks the decoder by the first bytes, never by the file name: RIFF/WAVE goes to the pure-Java
 * {@link WavDecoder}, everything else to libsndfile, which knows the rest by their own magic.
 */
final class AudioDecoders {
    private static final int HEAD = 12;
    private static final int BUFFER = 1 << 16;

    private AudioDecoders() {}

    static FrameDecoder open(Path file, Consumer<String> warnings) throws IOException {
        String source = file.toString();
        // a named pipe, /dev/stdin, a process substitution: no size, no seeking
        if (Files.exists(file) && !Files.isDirectory(file) && !Files.isRegularFile(file))
            return open(newInputStream(file), source, warnings);
        InputStream in = new BufferedInputStream(newInputStream(file), BUFFER);
        try {
            in.mark(HEAD);
            byte[] head = in.readNBytes(HEAD);
            in.reset();
            if (head.length == 0) throw new AudioFormatException(source + ": empty file, not an audio file");
            if (WavHeader.sniff(head, head.length)) {
                WavHeader header = WavHeader.read(in, source, Files.size(file), warnings);
                if (header.decodable()) return new WavDecoder(in, header, source, warnings);
                in.close(); // ADPCM, GSM and other WAV codecs
                return SndfileDecoder.open(
                        file, source, "WAV of " + header.bits() + "-bit " + WavHeader.encoding(header.format()));
            }
            in.close();
            return SndfileDecoder.open(file, source, guess(head));
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** A stream of any format; libsndfile formats must be ones it can read from a pipe. */
    static FrameDecoder open(InputStream stream, String source, Consumer<String> warnings) throws IOException {
        InputStream in = stream instanceof BufferedInputStream ? stream : new BufferedInputStream(stream, BUFFER);
        in.mark(HEAD);
        byte[] head = in.readNBytes(HEAD);
        if (head.length == 0) throw new AudioFormatException(source + ": empty stream, no audio");
        if (WavHeader.sniff(head, head.length)) {
            in.reset();
            return wav(in, source, -1, warnings);
        }
        return SndfileDecoder.open(head, in, source, guess(head));
    }

    /** A WAV file only, as {@link WavReader} promises. */
    static FrameDecoder openWav(Path file, Consumer<String> warnings) throws IOException {
        InputStream in = new BufferedInputStream(newInputStream(file), BUFFER);
        try {
            return wav(in, file.toString(), Files.size(file), warnings);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    static FrameDecoder wav(InputStream in, String source, long length, Consumer<String> warnings) throws IOException {
        WavHeader header = WavHeader.read(in, source, length, warnings);
        if (!header.decodable()) throw header.unsupported(source);
        return new WavDecoder(in, header, source, warnings);
    }

    private static InputStream newInputStream(Path file) throws IOException {
        if (Files.isDirectory(file)) throw new AudioFormatException(file + ": is a directory, not an audio file");
        try {
            return Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new AudioFormatException(file + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new AudioFormatException(file + ": permission denied", e);
        }
    }

    /** What the first bytes look like, for messages: libsndfile does the real recognizing. */
    static String guess(byte[] h) {
        if (starts(h, "fLaC")) return "FLAC";
        if (starts(h, "OggS")) return "Ogg (Vorbis, Opus or FLAC)";
        if (starts(h, "ID3") || (h.length >= 2 && (h[0] & 0xFF) == 0xFF && (h[1] & 0xE0) == 0xE0)) return "MP3";
        if (starts(h, "FORM")) return "AIFF";
        if (starts(h, ".snd")) return "AU/SND";
        if (starts(h, "riff")) return "W64";
        if (starts(h, "RF64")) return "RF64";
        if (starts(h, "caff")) return "CAF";
        return "a format this reader does not recognize";
    }

    private static boolean starts(byte[] h, String magic) {
        if (h.length < magic.length()) return false;
        for (int i = 0; i < magic.length(); i++) if (h[i] != magic.charAt(i)) return false;
        return true;
    }
}
