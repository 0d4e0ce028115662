package dev.audioengine.audio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads RIFF/WAVE files: PCM 8 (unsigned), 16, 24 and 32-bit integer, 32 and 64-bit float, plain
 * or WAVE_FORMAT_EXTENSIBLE, any channel count (averaged to mono) and any sample rate.
 */
public final class WavReader {
    private static final int PCM = 1, IEEE_FLOAT = 3, EXTENSIBLE = 0xFFFE;
    /** Past this many channels a header is more likely corrupt than real. */
    private static final int MAX_CHANNELS = 1024;

    private WavReader() {}

    public static AudioClip read(Path file) throws IOException {
        long size = Files.size(file);
        if (size > Integer.MAX_VALUE - 16) throw new WavFormatException(file + ": " + size + " bytes is larger than this reader handles (2 GiB)");
        return decode(Files.readAllBytes(file), file.toString());
    }

    /** Decodes WAV bytes; {@code source} names them in error messages. */
    public static AudioClip decode(byte[] bytes, String source) throws WavFormatException {
        if (bytes.length == 0) throw new WavFormatException(source + ": empty file, not a WAV file");
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 12 || !tag(bytes, 0, "RIFF") || !tag(bytes, 8, "WAVE")) {
            throw new WavFormatException(source + ": not a WAV file (no RIFF/WAVE header)");
        }
        int format = -1, channels = 0, rate = 0, blockAlign = 0, bits = 0;
        int pos = 12;
        while (true) {
            if (bytes.length - pos < 8) {
                throw new WavFormatException(source + ": " + (format < 0 ? "no fmt chunk" : "no data chunk") + " before the end of the file (truncated?)");
            }
            String id = new String(bytes, pos, 4, java.nio.charset.StandardCharsets.ISO_8859_1);
            long len = Integer.toUnsignedLong(b.getInt(pos + 4));
            int body = pos + 8;
            long left = bytes.length - body;
            if (id.equals("fmt ")) {
                if (len < 16 || len > left) throw new WavFormatException(source + ": fmt chunk of " + len + " bytes is " + (len < 16 ? "too short" : "truncated"));
                format = Short.toUnsignedInt(b.getShort(body));
                channels = Short.toUnsignedInt(b.getShort(body + 2));
                rate = b.getInt(body + 4);
                blockAlign = Short.toUnsignedInt(b.getShort(body + 12));
                bits = Short.toUnsignedInt(b.getShort(body + 14));
                if (format == EXTENSIBLE) {
                    if (len < 40) throw new WavFormatException(source + ": WAVE_FORMAT_EXTENSIBLE fmt chunk of " + len + " bytes, needs 40");
                    format = Short.toUnsignedInt(b.getShort(body + 24)); // first two bytes of the sub-format GUID
                }
            } else if (id.equals("data")) {
                if (format < 0) throw new WavFormatException(source + ": data chunk before the fmt chunk");
                if (len > left) {
                    throw new WavFormatException(source + ": truncated: the data chunk declares " + len + " bytes but the file holds " + left);
                }
                return samples(b, body, (int) len, format, channels, rate, blockAlign, bits, source);
            }
            if (len > left) throw new WavFormatException(source + ": truncated: chunk '" + id.strip() + "' declares " + len + " bytes, " + left + " remain");
            pos = (int) (body + len + (len & 1)); // chunks are padded to even sizes
        }
    }

    private static AudioClip samples(ByteBuffer b, int at, int len, int format, int channels, int rate, int blockAlign,
                                     int bits, String source) throws WavFormatException {
        if (channels < 1 || channels > MAX_CHANNELS) throw new WavFormatException(source + ": " + channels + " channels");
        if (rate <= 0) throw new WavFormatException(source + ": sample rate " + Integer.toUnsignedString(rate));
        boolean ok = (format == PCM && (bits == 8 || bits == 16 || bits == 24 || bits == 32))
                || (format == IEEE_FLOAT && (bits == 32 || bits == 64));
        if (!ok) {
            String kind = format == PCM ? "integer PCM" : format == IEEE_FLOAT ? "float" : "format tag 0x" + Integer.toHexString(format);
            throw new WavFormatException(source + ": unsupported encoding: " + bits + "-bit " + kind
                    + " (supported: 8/16/24/32-bit integer PCM, 32/64-bit float)");
        }
        int width = bits / 8;
        if (blockAlign != width * channels) {
            throw new WavFormatException(source + ": block align " + blockAlign + " does not match " + channels + " channels of " + bits + " bits");
        }
        int frames = len / blockAlign;
        if (frames == 0) throw new WavFormatException(source + ": no audio (the data chunk holds no complete sample frame)");
        float[] mono = new float[frames];
        float inv = 1f / channels;
        for (int f = 0; f < frames; f++) {
            double sum = 0;
            int p = at + f * blockAlign;
            for (int c = 0; c < channels; c++, p += width) sum += sample(b, p, format, bits);
            mono[f] = (float) (sum * inv);
        }
        return new AudioClip(mono, rate, channels);
    }

    private static double sample(ByteBuffer b, int p, int format, int bits) {
        if (format == IEEE_FLOAT) return bits == 32 ? b.getFloat(p) : b.getDouble(p);
        return switch (bits) {
            case 8 -> ((b.get(p) & 0xFF) - 128) / 128.0;
            case 16 -> b.getShort(p) / 32768.0;
            case 24 -> (((b.get(p + 2) << 16) | ((b.get(p + 1) & 0xFF) << 8) | (b.get(p) & 0xFF))) / 8388608.0;
            default -> b.getInt(p) / 2147483648.0;
        };
    }

    private static boolean tag(byte[] bytes, int at, String tag) {
        for (int i = 0; i < 4; i++) if (bytes[at + i] != tag.charAt(i)) return false;
        return true;
    }
}
