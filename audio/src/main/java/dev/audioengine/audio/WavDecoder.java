package dev.audioengine.audio;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * WAV samples, pure Java: integer PCM, float, A-law and µ-law, read block by block from a stream
 * positioned by {@link WavHeader}. A stream that ends before the declared size is decoded as far
 * as it goes, with a warning. Not thread-safe.
 */
final class WavDecoder implements FrameDecoder {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle F32 = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle F64 = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private final InputStream in;
    private final WavHeader header;
    private final String source;
    private final Consumer<String> warnings;
    private byte[] bytes = new byte[0];
    private long bytesRead;
    private boolean ended;

    WavDecoder(InputStream in, WavHeader header, String source, Consumer<String> warnings) {
        this.in = in;
        this.header = header;
        this.source = source;
        this.warnings = warnings;
    }

    @Override
    public int sampleRate() {
        return header.sampleRate();
    }

    @Override
    public int channels() {
        return header.channels();
    }

    @Override
    public long frames() {
        return header.dataBytes() < 0 ? -1 : header.dataBytes() / header.blockAlign();
    }

    @Override
    public String description() {
        return "WAV " + header.bits() + "-bit " + WavHeader.encoding(header.format());
    }

    @Override
    public int read(float[] dst, int maxFrames) throws IOException {
        if (ended) return -1;
        int align = header.blockAlign();
        long want = (long) maxFrames * align;
        if (header.dataBytes() >= 0) want = Math.min(want, header.dataBytes() - bytesRead);
        if (want == 0) return end(0);
        if (bytes.length < want) bytes = new byte[(int) want];
        int got = in.readNBytes(bytes, 0, (int) want);
        bytesRead += got;
        int frames = got / align;
        if (got < want) {
            if (header.dataBytes() >= 0 && !header.truncated()) {
                warnings.accept(source + ": truncated: the data chunk declares " + header.dataBytes()
                        + " bytes but the stream ended after " + bytesRead + "; decoded the " + bytesRead / align
                        + " frames there are");
            }
            if (got % align != 0)
                warnings.accept(
                        source + ": the last " + got % align + " bytes are an incomplete sample frame; dropped");
            ended = true;
        }
        convert(frames * header.channels(), dst);
        return frames == 0 && ended ? -1 : frames;
    }

    private int end(int frames) {
        ended = true;
        return frames == 0 ? -1 : frames;
    }

    private void convert(int n, float[] dst) {
        byte[] b = bytes;
        switch (header.format()) {
            case WavHeader.IEEE_FLOAT -> {
                if (header.bits() == 32) for (int i = 0; i < n; i++) dst[i] = (float) F32.get(b, 4 * i);
                else for (int i = 0; i < n; i++) dst[i] = (float) (double) F64.get(b, 8 * i);
            }
            case WavHeader.A_LAW -> {
                for (int i = 0; i < n; i++) dst[i] = G711.aLaw(b[i]);
            }
            case WavHeader.MU_LAW -> {
                for (int i = 0; i < n; i++) dst[i] = G711.muLaw(b[i]);
            }
            default -> {
                switch (header.bits()) {
                    case 8 -> {
                        for (int i = 0; i < n; i++) dst[i] = ((b[i] & 0xFF) - 128) / 128f;
                    }
                    case 16 -> {
                        for (int i = 0; i < n; i++) dst[i] = (short) I16.get(b, 2 * i) / 32768f;
                    }
                    case 24 -> {
                        for (int i = 0, p = 0; i < n; i++, p += 3) {
                            dst[i] = ((b[p + 2] << 16) | ((b[p + 1] & 0xFF) << 8) | (b[p] & 0xFF)) / 8388608f;
                        }
                    }
                    default -> {
                        for (int i = 0; i < n; i++) dst[i] = (float) ((int) I32.get(b, 4 * i) / 2147483648.0);
                    }
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
