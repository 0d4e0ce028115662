package dev.audioengine.model.output;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes mono audio a model produced as a whole WAV file. Two encodings: 32-bit IEEE float ({@link #writeFloat}), which
 * keeps every sample exactly (speech-only audio for analysis), and 16-bit integer PCM ({@link #writePcm16}), which
 * every player, browser and phone plays (synthesized speech for people). For audio whose length is not known when the
 * header is written, see {@link WavStreamWriter}.
 */
public final class WavWriter {
    private static final int FLOAT_HEADER = 12 + 8 + 18 + 8 + 4 + 8;
    static final int PCM16_HEADER = 12 + 8 + 16 + 8;

    private WavWriter() {}

    /**
     * RIFF, a WAVE_FORMAT_IEEE_FLOAT fmt chunk, a fact chunk (required for non-PCM data), and the data.
     *
     * @param file the output file, created or truncated
     * @param samples mono audio, written exactly (no clipping or conversion)
     * @param sampleRate samples per second, {@code > 0}
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if the rate is not positive or the audio exceeds WAV's 4 GiB
     */
    public static void writeFloat(Path file, float[] samples, int sampleRate) throws IOException {
        checkRate(sampleRate);
        long dataBytes = 4L * samples.length;
        if (FLOAT_HEADER - 8 + dataBytes > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(samples.length + " samples do not fit in one WAV file (4 GiB)");
        }
        ByteBuffer h = ByteBuffer.allocate(FLOAT_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.put(ascii("RIFF")).putInt((int) (FLOAT_HEADER - 8 + dataBytes)).put(ascii("WAVE"));
        h.put(ascii("fmt "))
                .putInt(18)
                .putShort((short) 3) // WAVE_FORMAT_IEEE_FLOAT
                .putShort((short) 1) // mono
                .putInt(sampleRate)
                .putInt(sampleRate * 4)
                .putShort((short) 4)
                .putShort((short) 32)
                .putShort((short) 0); // no extension
        h.put(ascii("fact")).putInt(4).putInt(samples.length);
        h.put(ascii("data")).putInt((int) dataBytes);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(h.array());
            ByteBuffer block = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
            for (float s : samples) {
                if (!block.hasRemaining()) {
                    out.write(block.array(), 0, block.position());
                    block.clear();
                }
                block.putFloat(s);
            }
            out.write(block.array(), 0, block.position());
        }
    }

    /**
     * A 16-bit PCM WAV file of {@code samples}, converted as {@link #pcm16} does.
     *
     * @param file the output file, created or truncated
     * @param samples mono audio in [-1, 1]; clipped beyond
     * @param sampleRate samples per second, {@code > 0}
     * @throws IOException if the file cannot be written
     * @throws IllegalArgumentException if the rate is not positive or the audio exceeds WAV's 4 GiB
     */
    public static void writePcm16(Path file, float[] samples, int sampleRate) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            writePcm16(out, samples, sampleRate);
        }
    }

    /**
     * The same bytes to {@code out} (standard output, a socket), which is flushed but left open.
     *
     * @param out the stream; the caller closes it
     * @param samples mono audio in [-1, 1]; clipped beyond
     * @param sampleRate samples per second, {@code > 0}
     * @throws IOException if writing fails
     * @throws IllegalArgumentException if the rate is not positive or the audio exceeds WAV's 4 GiB
     */
    public static void writePcm16(OutputStream out, float[] samples, int sampleRate) throws IOException {
        checkRate(sampleRate);
        long dataBytes = 2L * samples.length;
        if (PCM16_HEADER - 8 + dataBytes > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(samples.length + " samples do not fit in one WAV file (4 GiB)");
        }
        out.write(pcm16Header(sampleRate, (int) (PCM16_HEADER - 8 + dataBytes), (int) dataBytes));
        writePcm16Samples(out, samples, 0, samples.length);
        out.flush();
    }

    /** RIFF, a WAVE_FORMAT_PCM fmt chunk (mono, 16 bits) and the data chunk's header, with the two sizes given. */
    static byte[] pcm16Header(int sampleRate, int riffSize, int dataSize) {
        checkRate(sampleRate);
        ByteBuffer h = ByteBuffer.allocate(PCM16_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.put(ascii("RIFF")).putInt(riffSize).put(ascii("WAVE"));
        h.put(ascii("fmt "))
                .putInt(16)
                .putShort((short) 1) // WAVE_FORMAT_PCM
                .putShort((short) 1) // mono
                .putInt(sampleRate)
                .putInt(sampleRate * 2)
                .putShort((short) 2)
                .putShort((short) 16);
        h.put(ascii("data")).putInt(dataSize);
        return h.array();
    }

    static void writePcm16Samples(OutputStream out, float[] samples, int from, int length) throws IOException {
        ByteBuffer block = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = from; i < from + length; i++) {
            if (!block.hasRemaining()) {
                out.write(block.array(), 0, block.position());
                block.clear();
            }
            block.putShort(pcm16(samples[i]));
        }
        out.write(block.array(), 0, block.position());
    }

    /**
     * One sample as a 16-bit integer: full scale is 32767 (libsndfile's and soundfile's scale: +1 and -1 map to
     * ±32767, symmetric, so a full-scale sine does not clip), rounded to the
     * nearest, clipped beyond [-1, 1]; NaN, which no player can show, becomes 0.
     *
     * @param s a sample, nominally in [-1, 1]
     * @return the 16-bit value, in [-32767, 32767]
     */
    public static short pcm16(float s) {
        if (Float.isNaN(s)) return 0;
        return (short) Math.round(Math.clamp(s, -1f, 1f) * 32767f);
    }

    private static void checkRate(int sampleRate) {
        if (sampleRate <= 0) throw new IllegalArgumentException("sample rate must be positive, got " + sampleRate);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
