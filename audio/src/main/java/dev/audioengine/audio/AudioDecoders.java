package dev.audioengine.audio;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Picks the decoder by the first bytes, never by the file name: RIFF/WAVE goes to the pure-Java
 * {@link WavDecoder}; everything else to libsndfile, which knows its formats by their own magic; what libsndfile
 * refuses (or everything, when it is not installed) to FFmpeg, which knows the rest (WebM, MP4/M4A, Matroska, AAC,
 * AMR, ...). A chosen audio stream other than the first goes to FFmpeg at once: WAV and libsndfile's formats hold one.
 */
final class AudioDecoders {
    private static final int HEAD = 12;
    private static final int BUFFER = 1 << 16;
    /** How much of a stream is kept so that FFmpeg can read from the start what libsndfile refused. */
    private static final int REPLAY = 1 << 20;

    private AudioDecoders() {}

    static FrameDecoder open(Path file, int audioStream, Consumer<String> warnings) throws IOException {
        String source = file.toString();
        // a named pipe, /dev/stdin, a process substitution: no size, no seeking
        if (Files.exists(file) && !Files.isDirectory(file) && !Files.isRegularFile(file))
            return open(newInputStream(file), source, audioStream, warnings);
        InputStream in = new BufferedInputStream(newInputStream(file), BUFFER);
        try {
            in.mark(HEAD);
            byte[] head = in.readNBytes(HEAD);
            in.reset();
            if (head.length == 0) throw new AudioFormatException(source + ": empty file, not an audio file");
            if (WavHeader.sniff(head, head.length)) {
                WavHeader header = WavHeader.read(in, source, Files.size(file), warnings);
                if (header.decodable()) {
                    onlyStream(audioStream, source, "WAV");
                    return new WavDecoder(in, header, source, warnings);
                }
                in.close(); // ADPCM, GSM and other WAV codecs
                return notWav(
                        file,
                        source,
                        audioStream,
                        "WAV of " + header.bits() + "-bit " + WavHeader.encoding(header.format()),
                        warnings);
            }
            in.close();
            return notWav(file, source, audioStream, guess(head), warnings);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** libsndfile, then FFmpeg for what it refuses; {@code guess} names what the first bytes look like. */
    private static FrameDecoder notWav(
            Path file, String source, int audioStream, String guess, Consumer<String> warnings) throws IOException {
        if (audioStream > 0) return FfmpegDecoder.open(file, source, audioStream, warnings);
        DecoderRefusedException sndfile;
        try {
            return SndfileDecoder.open(file, source, guess);
        } catch (DecoderRefusedException e) {
            sndfile = e;
        }
        try {
            return FfmpegDecoder.open(file, source, audioStream, warnings);
        } catch (DecoderRefusedException ffmpeg) {
            throw refusedByBoth(sndfile, ffmpeg, source);
        }
    }

    /** A stream of any format; libsndfile formats must be ones it can read from a pipe. */
    static FrameDecoder open(InputStream stream, String source, int audioStream, Consumer<String> warnings)
            throws IOException {
        BufferedInputStream in = stream instanceof BufferedInputStream b ? b : new BufferedInputStream(stream, BUFFER);
        try {
            in.mark(HEAD);
            byte[] head = in.readNBytes(HEAD);
            if (head.length == 0) throw new AudioFormatException(source + ": empty stream, no audio");
            in.reset();
            if (WavHeader.sniff(head, head.length)) {
                onlyStream(audioStream, source, "WAV");
                return wav(in, source, -1, warnings);
            }
            if (audioStream > 0) return FfmpegDecoder.open(in, source, audioStream, warnings);
            // libsndfile reads through a shield that keeps the stream open when it refuses, and from a mark that
            // lets FFmpeg start again from the first byte
            in.mark(REPLAY);
            in.skipNBytes(head.length);
            Shield shield = new Shield(in);
            DecoderRefusedException sndfile;
            try {
                FrameDecoder d = SndfileDecoder.open(head, shield, source, guess(head));
                shield.closeThrough = true;
                return d;
            } catch (DecoderRefusedException e) {
                sndfile = e;
            }
            try {
                in.reset();
            } catch (IOException tooFar) {
                throw new AudioFormatException(sndfile.getMessage() + " (FFmpeg was not tried: libsndfile read more"
                        + " than the " + (REPLAY >> 20) + " MiB kept of the stream)");
            }
            try {
                return FfmpegDecoder.open(in, source, audioStream, warnings);
            } catch (DecoderRefusedException ffmpeg) {
                throw refusedByBoth(sndfile, ffmpeg, source);
            }
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** libsndfile's refusal, FFmpeg's, and what this reader takes. */
    private static AudioFormatException refusedByBoth(
            DecoderRefusedException sndfile, DecoderRefusedException ffmpeg, String source) {
        String f = ffmpeg.getMessage();
        if (f.startsWith(source + ": ")) f = f.substring(source.length() + 2);
        String first = sndfile.getMessage();
        if (!first.endsWith(".")) first += ".";
        AudioFormatException e = new AudioFormatException(
                first + " " + (Ffmpeg.available() ? "FFmpeg does not read it either: " + f + ". " + accepted() : f));
        e.addSuppressed(ffmpeg);
        return e;
    }

    /** The formats this reader takes here, and what installing a missing library would add. */
    static String accepted() {
        return accepted(Libsndfile.available(), Ffmpeg.available());
    }

    static String accepted(boolean libsndfile, boolean ffmpeg) {
        String sndfile = "FLAC, Ogg Vorbis and Opus, MP3, AIFF, AU, CAF, W64";
        List<String> here = new ArrayList<>(List.of("WAV"));
        List<String> missing = new ArrayList<>();
        if (libsndfile) here.add(sndfile + " (libsndfile)");
        else missing.add("libsndfile (apt-get install " + Libsndfile.DEBIAN_PACKAGE + ") adds " + sndfile);
        if (ffmpeg) here.add(Ffmpeg.ADDS + " (FFmpeg)");
        else missing.add("FFmpeg's libraries (apt-get install " + Ffmpeg.DEBIAN_PACKAGES + ") add " + Ffmpeg.ADDS);
        return "Readable here: " + String.join("; ", here) + "."
                + (missing.isEmpty() ? "" : " Installing " + String.join("; installing ", missing) + ".");
    }

    /** WAV holds one audio stream: number 0 (or none chosen) is the only choice. */
    private static void onlyStream(int audioStream, String source, String what) throws AudioFormatException {
        if (audioStream > 0)
            throw new AudioFormatException(source + ": there is no audio stream " + audioStream
                    + ": it has 1 audio stream (number 0) (" + what + ")");
    }

    /** Keeps the stream open when libsndfile closes its input after refusing it; passes close on once it reads it. */
    private static final class Shield extends FilterInputStream {
        boolean closeThrough;

        Shield(InputStream in) {
            super(in);
        }

        @Override
        public void close() throws IOException {
            if (closeThrough) super.close();
        }
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
