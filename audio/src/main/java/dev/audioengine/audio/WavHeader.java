package dev.audioengine.audio;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The RIFF/WAVE header up to the start of the samples, read from a stream so that pipes work: the
 * chunks before "data" are read or skipped in order, and the stream is left at the first sample.
 *
 * <p>Sizes are treated as a streaming writer leaves them: a data size of 0xFFFFFFFF (what
 * {@code ffmpeg -f wav -} writes to a pipe) means "to the end of the stream", and a data chunk
 * longer than the file is decoded as far as it goes, with a warning, as sox and ffmpeg do. What
 * stays an error: a size that would make the reader allocate (the fmt chunk), chunks before the
 * samples that run past the end, and every field the samples cannot be decoded without.
 *
 * @param dataBytes bytes of samples to read, or -1 for "until the stream ends"
 * @param truncated the file is shorter than its data chunk declares (already reported as a warning)
 */
record WavHeader(
        int format, int channels, int sampleRate, int blockAlign, int bits, long dataBytes, boolean truncated) {
    static final int PCM = 1, IEEE_FLOAT = 3, A_LAW = 6, MU_LAW = 7, EXTENSIBLE = 0xFFFE;
    /** The data size a streaming writer puts in the header when it cannot come back to fill it in. */
    private static final long UNKNOWN_SIZE = 0xFFFF_FFFFL;
    /** Past this many channels a header is more likely corrupt than real. */
    private static final int MAX_CHANNELS = 1024;
    /** The largest fmt chunk read: real ones are 16 to 40 bytes, plus rare codec extras. */
    private static final int MAX_FMT_BYTES = 1 << 16;

    /** True when {@code head} (at least 12 bytes) starts a RIFF/WAVE file. */
    static boolean sniff(byte[] head, int length) {
        return length >= 12 && tag(head, 0, "RIFF") && tag(head, 8, "WAVE");
    }

    /**
     * Reads the header from {@code in}; {@code streamLength} is the file's size, or -1 for a pipe.
     * Truncation found here (a data chunk longer than the file) is reported to {@code warnings}.
     */
    static WavHeader read(InputStream in, String source, long streamLength, Consumer<String> warnings)
            throws IOException {
        byte[] riff = in.readNBytes(12);
        if (riff.length == 0) throw new WavFormatException(source + ": empty file, not a WAV file");
        if (!sniff(riff, riff.length)) throw new WavFormatException(source + ": not a WAV file (no RIFF/WAVE header)");
        ByteBuffer fmt = null;
        long pos = 12;
        while (true) {
            byte[] chunk = in.readNBytes(8);
            if (chunk.length < 8) {
                throw new WavFormatException(source + ": " + (fmt == null ? "no fmt chunk" : "no data chunk")
                        + " before the end of the file (truncated?)");
            }
            String id = new String(chunk, 0, 4, StandardCharsets.ISO_8859_1);
            long len = Integer.toUnsignedLong(
                    ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN).getInt(4));
            pos += 8;
            long left = streamLength < 0 ? Long.MAX_VALUE : streamLength - pos;
            if (id.equals("data")) {
                if (fmt == null) throw new WavFormatException(source + ": data chunk before the fmt chunk");
                long dataBytes = len == UNKNOWN_SIZE ? -1 : len;
                boolean truncated = dataBytes > left;
                if (truncated) {
                    warnings.accept(source + ": truncated: the data chunk declares " + len
                            + " bytes but the file holds " + left + "; decoding the " + left + " bytes there are");
                    dataBytes = left;
                }
                return of(fmt, dataBytes, truncated, source);
            }
            if (len > left) {
                throw new WavFormatException(source + ": truncated: chunk '" + id.strip() + "' declares " + len
                        + " bytes, " + left + " remain");
            }
            long padded = len + (len & 1); // chunks are padded to even sizes
            if (id.equals("fmt ")) {
                if (len < 16) throw new WavFormatException(source + ": fmt chunk of " + len + " bytes is too short");
                if (len > MAX_FMT_BYTES)
                    throw new WavFormatException(
                            source + ": fmt chunk of " + len + " bytes is implausible (corrupt header?)");
                byte[] body = in.readNBytes((int) len);
                if (body.length < len)
                    throw new WavFormatException(source + ": fmt chunk of " + len + " bytes is truncated");
                fmt = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
                if (padded > len) in.read(); // the pad byte; a file that ends here fails at the next chunk header
            } else {
                skip(in, padded, source, id);
            }
            pos += padded;
        }
    }

    private static void skip(InputStream in, long n, String source, String id) throws IOException {
        try {
            in.skipNBytes(n);
        } catch (java.io.EOFException e) {
            throw new WavFormatException(source + ": truncated: chunk '" + id.strip() + "' declares " + n
                    + " bytes, the stream ended inside it");
        }
    }

    private static WavHeader of(ByteBuffer b, long dataBytes, boolean truncated, String source)
            throws AudioFormatException {
        int format = Short.toUnsignedInt(b.getShort(0));
        int channels = Short.toUnsignedInt(b.getShort(2));
        long rate = Integer.toUnsignedLong(b.getInt(4));
        int blockAlign = Short.toUnsignedInt(b.getShort(12));
        int bits = Short.toUnsignedInt(b.getShort(14));
        if (format == EXTENSIBLE) {
            if (b.capacity() < 40)
                throw new WavFormatException(
                        source + ": WAVE_FORMAT_EXTENSIBLE fmt chunk of " + b.capacity() + " bytes, needs 40");
            format = Short.toUnsignedInt(b.getShort(24)); // first two bytes of the sub-format GUID
        }
        if (channels < 1 || channels > MAX_CHANNELS)
            throw new WavFormatException(source + ": " + channels + " channels");
        SampleRateRange.check(rate, source);
        WavHeader header = new WavHeader(format, channels, (int) rate, blockAlign, bits, dataBytes, truncated);
        // For the encodings whose samples are whole bytes, a frame is the bytes of a sample (bits rounded up) per
        // channel.
        // Fields that disagree are the file's error, not ours to settle: libsndfile sizes samples by the bits, so 7
        // bits in
        // frames of 2 bytes would decode 16-bit data as twice as many 8-bit samples.
        boolean sized = format == PCM || format == IEEE_FLOAT || format == A_LAW || format == MU_LAW;
        if (sized && (bits == 0 || blockAlign != (bits + 7) / 8 * channels)) {
            throw new WavFormatException(source + ": inconsistent fmt chunk: block align " + blockAlign
                    + " does not match " + channels + (channels == 1 ? " channel" : " channels") + " of " + bits
                    + " bits (" + (bits + 7) / 8 * channels + " bytes a frame)");
        }
        return header;
    }

    /** Whether {@link WavDecoder} decodes these samples (the codecs, ADPCM, GSM and the like, are libsndfile's). */
    boolean decodable() {
        return (format == PCM && (bits == 8 || bits == 16 || bits == 24 || bits == 32))
                || (format == IEEE_FLOAT && (bits == 32 || bits == 64))
                || ((format == A_LAW || format == MU_LAW) && bits == 8);
    }

    WavFormatException unsupported(String source) {
        return new WavFormatException(source + ": unsupported encoding: " + bits + "-bit " + encoding(format)
                + " (supported: 8/16/24/32-bit integer PCM, 32/64-bit float, 8-bit A-law and µ-law; AudioStream reads"
                + " the other WAV codecs from a file, through libsndfile)");
    }

    static String encoding(int format) {
        return switch (format) {
            case PCM -> "integer PCM";
            case IEEE_FLOAT -> "float";
            case A_LAW -> "A-law";
            case MU_LAW -> "µ-law";
            default -> "format tag 0x" + Integer.toHexString(format);
        };
    }

    private static boolean tag(byte[] bytes, int at, String tag) {
        for (int i = 0; i < 4; i++) if (bytes[at + i] != tag.charAt(i)) return false;
        return true;
    }
}
