package dev.audioengine.api.tensor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Quantize and dequantize rows in ggml's Q8_0 and Q4_0 block layouts (see {@link DType}).
 * The rounding follows ggml's reference quantizers so that blocks made here and blocks read
 * from a GGUF file mean the same numbers.
 */
public final class BlockQuantization {
    /** Values per block of both formats, each block sharing one f16 scale; rows must be a multiple of it. */
    public static final int BLOCK = 32;

    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    private BlockQuantization() {}

    /**
     * Quantizes {@code n} floats (a multiple of 32) from {@code src} into {@code dst} at byte offset.
     * Each block's scale is max|x| / 127; values round to the nearest int8.
     *
     * @param src the values; rows of a weight matrix, each a whole number of blocks
     * @param srcOff index of the first value in {@code src}
     * @param n how many values, a multiple of {@link #BLOCK}
     * @param dst where the blocks go; needs {@code n / 32 * 34} bytes from {@code dstOff}
     * @param dstOff byte offset of the first block in {@code dst}; no alignment needed
     * @throws IllegalArgumentException if {@code n} is not a whole number of blocks
     */
    public static void quantizeQ8_0(float[] src, int srcOff, int n, MemorySegment dst, long dstOff) {
        checkBlocks(n);
        for (int b = 0; b < n / BLOCK; b++) {
            float amax = 0;
            for (int i = 0; i < BLOCK; i++) amax = Math.max(amax, Math.abs(src[srcOff + b * BLOCK + i]));
            float d = amax / 127f;
            float id = d != 0 ? 1f / d : 0f;
            long base = dstOff + (long) b * DType.Q8_0.blockBytes();
            dst.set(SHORT, base, HalfFloats.floatToF16(d));
            for (int i = 0; i < BLOCK; i++) {
                dst.set(ValueLayout.JAVA_BYTE, base + 2 + i, (byte) Math.round(src[srcOff + b * BLOCK + i] * id));
            }
        }
    }

    /**
     * Quantizes {@code n} floats (a multiple of 32) from {@code src} into Q4_0 blocks in {@code dst} at a byte offset.
     * Each block's scale is the value of largest magnitude divided by -8, as ggml's reference quantizer does.
     *
     * @param src the values; rows of a weight matrix, each a whole number of blocks
     * @param srcOff index of the first value in {@code src}
     * @param n how many values, a multiple of {@link #BLOCK}
     * @param dst where the blocks go; needs {@code n / 32 * 18} bytes from {@code dstOff}
     * @param dstOff byte offset of the first block in {@code dst}; no alignment needed
     * @throws IllegalArgumentException if {@code n} is not a whole number of blocks
     */
    public static void quantizeQ4_0(float[] src, int srcOff, int n, MemorySegment dst, long dstOff) {
        checkBlocks(n);
        for (int b = 0; b < n / BLOCK; b++) {
            float amax = 0, max = 0;
            for (int i = 0; i < BLOCK; i++) {
                float v = src[srcOff + b * BLOCK + i];
                if (Math.abs(v) > amax) {
                    amax = Math.abs(v);
                    max = v;
                }
            }
            float d = max / -8f;
            float id = d != 0 ? 1f / d : 0f;
            long base = dstOff + (long) b * DType.Q4_0.blockBytes();
            dst.set(SHORT, base, HalfFloats.floatToF16(d));
            for (int i = 0; i < BLOCK / 2; i++) {
                float x0 = src[srcOff + b * BLOCK + i] * id;
                float x1 = src[srcOff + b * BLOCK + i + BLOCK / 2] * id;
                int q0 = Math.min(15, (int) (x0 + 8.5f));
                int q1 = Math.min(15, (int) (x1 + 8.5f));
                dst.set(ValueLayout.JAVA_BYTE, base + 2 + i, (byte) (q0 | (q1 << 4)));
            }
        }
    }

    /**
     * Expands Q8_0 blocks back to floats: value = int8 · scale.
     *
     * @param src the blocks; {@code n / 32 * 34} bytes from {@code srcOff} are read
     * @param srcOff byte offset of the first block
     * @param dst where the values go
     * @param dstOff index in {@code dst} of the first value written
     * @param n how many values, a multiple of {@link #BLOCK}
     * @throws IllegalArgumentException if {@code n} is not a whole number of blocks
     */
    public static void dequantizeQ8_0(MemorySegment src, long srcOff, float[] dst, int dstOff, int n) {
        checkBlocks(n);
        for (int b = 0; b < n / BLOCK; b++) {
            long base = srcOff + (long) b * DType.Q8_0.blockBytes();
            float d = HalfFloats.f16ToFloat(src.get(SHORT, base));
            for (int i = 0; i < BLOCK; i++) {
                dst[dstOff + b * BLOCK + i] = src.get(ValueLayout.JAVA_BYTE, base + 2 + i) * d;
            }
        }
    }

    /**
     * Expands Q4_0 blocks back to floats: value = (nibble - 8) · scale, low nibbles first.
     *
     * @param src the blocks; {@code n / 32 * 18} bytes from {@code srcOff} are read
     * @param srcOff byte offset of the first block
     * @param dst where the values go
     * @param dstOff index in {@code dst} of the first value written
     * @param n how many values, a multiple of {@link #BLOCK}
     * @throws IllegalArgumentException if {@code n} is not a whole number of blocks
     */
    public static void dequantizeQ4_0(MemorySegment src, long srcOff, float[] dst, int dstOff, int n) {
        checkBlocks(n);
        for (int b = 0; b < n / BLOCK; b++) {
            long base = srcOff + (long) b * DType.Q4_0.blockBytes();
            float d = HalfFloats.f16ToFloat(src.get(SHORT, base));
            for (int i = 0; i < BLOCK / 2; i++) {
                int q = src.get(ValueLayout.JAVA_BYTE, base + 2 + i) & 0xff;
                dst[dstOff + b * BLOCK + i] = ((q & 0x0f) - 8) * d;
                dst[dstOff + b * BLOCK + i + BLOCK / 2] = ((q >>> 4) - 8) * d;
            }
        }
    }

    private static void checkBlocks(int n) {
        if (n % BLOCK != 0) throw new IllegalArgumentException(n + " values is not a whole number of 32-value blocks");
    }
}
