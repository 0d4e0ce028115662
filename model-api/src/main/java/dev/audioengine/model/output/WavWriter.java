package dev.audioengine.model.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes mono audio a model produced (speech-only audio, synthesized speech) as a WAV file of
 * 32-bit IEEE floats, which keeps every sample exactly: RIFF, a WAVE_FORMAT_IEEE_FLOAT fmt
 * chunk, a fact chunk (required for non-PCM data), and the data.
 */
public final class WavWriter {
    private static final int HEADER = 12 + 8 + 18 + 8 + 4 + 8;

    private WavWriter() {}

    public static void writeFloat(Path file, float[] samples, int sampleRate) throws IOException {
        if (sampleRate <= 0) throw new IllegalArgumentException("sample rate must be positive, got " + sampleRate);
        long dataBytes = 4L * samples.length;
        if (HEADER - 8 + dataBytes > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(samples.length + " samples do not fit in one WAV file (4 GiB)");
        }
        ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.put("RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt((int) (HEADER - 8 + dataBytes))
                .put("WAVE".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        h.put("fmt ".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(18)
                .putShort((short) 3)                // WAVE_FORMAT_IEEE_FLOAT
                .putShort((short) 1)                // mono
                .putInt(sampleRate).putInt(sampleRate * 4).putShort((short) 4).putShort((short) 32)
                .putShort((short) 0);               // no extension
        h.put("fact".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(4).putInt(samples.length);
        h.put("data".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt((int) dataBytes);
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
}
