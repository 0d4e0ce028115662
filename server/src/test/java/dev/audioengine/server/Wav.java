package dev.audioengine.server;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** 16-bit PCM WAV bytes with whatever header fields a test wants to lie about. */
final class Wav {
    private Wav() {}

    /** A canonical 44-byte header declaring {@code dataBytes} of data at {@code rate}, followed by {@code samples}. */
    static byte[] pcm16(int rate, int channels, long dataBytes, short[] samples) {
        ByteBuffer b = ByteBuffer.allocate(44 + samples.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes())
                .putInt((int) Math.min(0xFFFFFFFFL, 36 + dataBytes))
                .put("WAVE".getBytes());
        b.put("fmt ".getBytes())
                .putInt(16)
                .putShort((short) 1)
                .putShort((short) channels)
                .putInt(rate)
                .putInt(rate * channels * 2)
                .putShort((short) (channels * 2))
                .putShort((short) 16);
        b.put("data".getBytes()).putInt((int) Math.min(0xFFFFFFFFL, dataBytes));
        for (short s : samples) b.putShort(s);
        return b.array();
    }

    /** The samples of a canonical 16-bit WAV file (its data after the 44-byte header). */
    static short[] samples(byte[] wav, int maxSamples) {
        ByteBuffer b = ByteBuffer.wrap(wav, 44, wav.length - 44).order(ByteOrder.LITTLE_ENDIAN);
        short[] out = new short[Math.min(maxSamples, b.remaining() / 2)];
        for (int i = 0; i < out.length; i++) out[i] = b.getShort();
        return out;
    }
}
