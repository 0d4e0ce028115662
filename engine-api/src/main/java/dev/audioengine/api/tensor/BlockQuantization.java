package dev.audioengine.api.tensor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Quantize and dequantize rows in ggml's Q8_0, Q4_0, Q5_0, Q5_1 and Q4_1 block layouts and its k-quant
 * super-blocks Q6_K, Q4_K, Q5_K, Q3_K and Q2_K (see {@link DType}).
 * The rounding follows ggml's reference quantizers ({@code quantize_row_*_ref}) so that blocks made here and blocks
 * read from a GGUF or whisper.cpp file mean the same numbers; the 5-bit and Q4_1 quantizers give ggml's bytes exactly
 * (weights' GgmlBlocksTest checks them against ggml itself). The k-quants decode as ggml's {@code dequantize_row_q*_K}
 * (checked against ggml there too); their quantizers are simpler than ggml's (no search for the best scales), so a
 * k-quant block made here means what it says but is not the block ggml would make from the same values.
 */
public final class BlockQuantization {
    /** Values per block of the 32-value formats, each block sharing one f16 scale (the k-quants hold 256). */
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

    /**
     * Quantizes {@code n} floats into blocks of {@code type}, as the type's own quantizer here does.
     *
     * @param type a block type ({@link DType#isQuantized()})
     * @param src the values; rows of a weight matrix, each a whole number of blocks
     * @param srcOff index of the first value in {@code src}
     * @param n how many values, a multiple of {@code type.blockSize()} (32, or 256 for the k-quants)
     * @param dst where the blocks go; needs {@code type.bytesFor(n)} bytes from {@code dstOff}
     * @param dstOff byte offset of the first block in {@code dst}; no alignment needed
     * @throws IllegalArgumentException if {@code type} is not a block type or {@code n} is not a whole number of blocks
     */
    public static void quantize(DType type, float[] src, int srcOff, int n, MemorySegment dst, long dstOff) {
        switch (type) {
            case Q6_K, Q4_K, Q5_K, Q3_K, Q2_K -> {
                checkSuperBlocks(type, n);
                for (int b = 0; b < n / KQuants.SUPER; b++)
                    KQuants.quantize(type, src, srcOff + b * KQuants.SUPER, dst, dstOff + (long) b * type.blockBytes());
            }
            case Q8_0 -> quantizeQ8_0(src, srcOff, n, dst, dstOff);
            case Q4_0 -> quantizeQ4_0(src, srcOff, n, dst, dstOff);
            case Q5_0 -> quantizeQ5_0(src, srcOff, n, dst, dstOff);
            case Q5_1 -> quantizeQ5_1(src, srcOff, n, dst, dstOff);
            case Q4_1 -> quantizeQ4_1(src, srcOff, n, dst, dstOff);
            default -> throw new IllegalArgumentException(type + " is not a block-quantized type");
        }
    }

    /**
     * Expands {@code n} values of blocks of {@code type} to floats.
     *
     * @param type a block type ({@link DType#isQuantized()})
     * @param src the blocks; {@code type.bytesFor(n)} bytes from {@code srcOff} are read
     * @param srcOff byte offset of the first block; no alignment needed
     * @param dst where the values go
     * @param dstOff index in {@code dst} of the first value written
     * @param n how many values, a multiple of {@code type.blockSize()} (32, or 256 for the k-quants)
     * @throws IllegalArgumentException if {@code type} is not a block type or {@code n} is not a whole number of blocks
     */
    public static void dequantize(DType type, MemorySegment src, long srcOff, float[] dst, int dstOff, int n) {
        switch (type) {
            case Q6_K, Q4_K, Q5_K, Q3_K, Q2_K -> {
                checkSuperBlocks(type, n);
                for (int b = 0; b < n / KQuants.SUPER; b++)
                    KQuants.dequantize(
                            type, src, srcOff + (long) b * type.blockBytes(), dst, dstOff + b * KQuants.SUPER);
            }
            case Q8_0 -> dequantizeQ8_0(src, srcOff, dst, dstOff, n);
            case Q4_0 -> dequantizeQ4_0(src, srcOff, dst, dstOff, n);
            case Q5_0, Q5_1, Q4_1 -> {
                checkBlocks(n);
                for (int b = 0; b < n / BLOCK; b++)
                    dequantizeBlock(type, src, srcOff + (long) b * type.blockBytes(), dst, dstOff + b * BLOCK);
            }
            default -> throw new IllegalArgumentException(type + " is not a block-quantized type");
        }
    }

    /**
     * Quantizes to Q5_0 as ggml's {@code quantize_row_q5_0_ref}: d is the value of largest magnitude divided by -16,
     * q = min(31, trunc(x / d + 16.5)), the low four bits in the nibbles, the fifth in the u32.
     *
     * @param src the values; rows of a weight matrix, each a whole number of blocks
     * @param srcOff index of the first value in {@code src}
     * @param n how many values, a multiple of {@link #BLOCK}
     * @param dst where the blocks go; needs {@code n / 32 * 22} bytes from {@code dstOff}
     * @param dstOff byte offset of the first block in {@code dst}; no alignment needed
     * @throws IllegalArgumentException if {@code n} is not a whole number of blocks
     */
    public static void quantizeQ5_0(float[] src, int srcOff, int n, MemorySegment dst, long dstOff) {
        checkBlocks(n);
        for (int b = 0; b < n / BLOCK; b++) {
            int from = srcOff + b * BLOCK;
            float amax = 0, max = 0;
            for (int i = 0; i < BLOCK; i++) {
                float v = src[from + i];
                if (Math.abs(v) > amax) {
                    amax = Math.abs(v);
                    max = v;
                }
            }
            float d = max / -16f;
            float id = d != 0 ? 1f / d : 0f;
            long base = dstOff + (long) b * DType.Q5_0.blockBytes();
            dst.set(SHORT, base, HalfFloats.floatToF16(d));
            int[] q = new int[BLOCK];
            for (int i = 0; i < BLOCK; i++) q[i] = Math.min(31, (int) (src[from + i] * id + 16.5f));
            packFive(q, dst, base + 2);
        }
    }

    /**
     * Quantizes to Q5_1 as ggml's {@code quantize_row_q5_1_ref}: m is the block's minimum, d = (max - min) / 31,
     * q = trunc((x - m) / d + 0.5).
     *
     * @param src the values; rows of a weight matrix, each a whole number of blocks
     * @param srcOff index of the first value in {@code src}
     * @param n how many values, a multiple of {@link #BLOCK}
     * @param dst where the blocks go; needs {@code n / 32 * 24} bytes from {@code dstOff}
     * @param dstOff byte offset of the first block in {@code dst}; no alignment needed
     * @throws IllegalArgumentException if {@code n} is not a whole number of blocks
     */
    public static void quantizeQ5_1(float[] src, int srcOff, int n, MemorySegment dst, long dstOff) {
        checkBlocks(n);
        for (int b = 0; b < n / BLOCK; b++) {
            int from = srcOff + b * BLOCK;
            long base = dstOff + (long) b * DType.Q5_1.blockBytes();
            float id = minScale(src, from, 31, dst, base);
            float min = minimum(src, from);
            int[] q = new int[BLOCK];
            for (int i = 0; i < BLOCK; i++) q[i] = (int) ((src[from + i] - min) * id + 0.5f);
            packFive(q, dst, base + 4);
        }
    }

    /**
     * Quantizes to Q4_1 as ggml's {@code quantize_row_q4_1_ref}: m is the block's minimum, d = (max - min) / 15,
     * q = min(15, trunc((x - m) / d + 0.5)).
     *
     * @param src the values; rows of a weight matrix, each a whole number of blocks
     * @param srcOff index of the first value in {@code src}
     * @param n how many values, a multiple of {@link #BLOCK}
     * @param dst where the blocks go; needs {@code n / 32 * 20} bytes from {@code dstOff}
     * @param dstOff byte offset of the first block in {@code dst}; no alignment needed
     * @throws IllegalArgumentException if {@code n} is not a whole number of blocks
     */
    public static void quantizeQ4_1(float[] src, int srcOff, int n, MemorySegment dst, long dstOff) {
        checkBlocks(n);
        for (int b = 0; b < n / BLOCK; b++) {
            int from = srcOff + b * BLOCK;
            long base = dstOff + (long) b * DType.Q4_1.blockBytes();
            float id = minScale(src, from, 15, dst, base);
            float min = minimum(src, from);
            for (int i = 0; i < BLOCK / 2; i++) {
                int q0 = Math.min(15, (int) ((src[from + i] - min) * id + 0.5f));
                int q1 = Math.min(15, (int) ((src[from + i + BLOCK / 2] - min) * id + 0.5f));
                dst.set(ValueLayout.JAVA_BYTE, base + 4 + i, (byte) (q0 | (q1 << 4)));
            }
        }
    }

    /** The block's minimum as ggml finds it (strict comparisons, so the first of -0 and 0 stays). */
    private static float minimum(float[] src, int from) {
        float min = Float.MAX_VALUE;
        for (int i = 0; i < BLOCK; i++) if (src[from + i] < min) min = src[from + i];
        return min;
    }

    /** Writes the block's f16 d = (max - min) / levels and f16 m = min at {@code base}; returns 1 / d (0 for d 0). */
    private static float minScale(float[] src, int from, int levels, MemorySegment dst, long base) {
        float min = minimum(src, from), max = -Float.MAX_VALUE;
        for (int i = 0; i < BLOCK; i++) if (src[from + i] > max) max = src[from + i];
        float d = (max - min) / levels;
        dst.set(SHORT, base, HalfFloats.floatToF16(d));
        dst.set(SHORT, base + 2, HalfFloats.floatToF16(min));
        return d != 0 ? 1f / d : 0f;
    }

    /** 32 five-bit values as ggml packs them at {@code at}: the u32 of fifth bits, then nibbles as Q4_0's. */
    private static void packFive(int[] q, MemorySegment dst, long at) {
        int qh = 0;
        for (int i = 0; i < BLOCK; i++) qh |= ((q[i] >>> 4) & 1) << i;
        dst.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), at, qh);
        for (int i = 0; i < BLOCK / 2; i++)
            dst.set(ValueLayout.JAVA_BYTE, at + 4 + i, (byte) ((q[i] & 0x0f) | ((q[i + BLOCK / 2] & 0x0f) << 4)));
    }

    /**
     * One block of Q5_0, Q5_1 or Q4_1 at byte {@code at} into 32 floats from {@code dst[off]}, as ggml's
     * {@code dequantize_row_*}: Q5_0 (q - 16) · d; Q5_1 and Q4_1 q · d + m.
     */
    private static void dequantizeBlock(DType type, MemorySegment s, long at, float[] dst, int off) {
        float d = HalfFloats.f16ToFloat(s.get(SHORT, at));
        float m = type == DType.Q5_0 ? 0 : HalfFloats.f16ToFloat(s.get(SHORT, at + 2));
        if (type == DType.Q4_1) {
            for (int j = 0; j < BLOCK / 2; j++) {
                int q = s.get(ValueLayout.JAVA_BYTE, at + 4 + j) & 0xff;
                dst[off + j] = (q & 0x0f) * d + m;
                dst[off + j + BLOCK / 2] = (q >>> 4) * d + m;
            }
            return;
        }
        long hAt = at + (type == DType.Q5_0 ? 2 : 4);
        int qh = s.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), hAt);
        int offset = type == DType.Q5_0 ? 16 : 0;
        for (int j = 0; j < BLOCK / 2; j++) {
            int q = s.get(ValueLayout.JAVA_BYTE, hAt + 4 + j) & 0xff;
            int hi0 = ((qh >>> j) << 4) & 0x10, hi1 = (qh >>> (j + 12)) & 0x10;
            dst[off + j] = (((q & 0x0f) | hi0) - offset) * d + m;
            dst[off + j + BLOCK / 2] = (((q >>> 4) | hi1) - offset) * d + m;
        }
    }

    private static void checkSuperBlocks(DType type, int n) {
        if (n % KQuants.SUPER != 0)
            throw new IllegalArgumentException(
                    n + " values is not a whole number of 256-value " + type + " super-blocks");
    }

    /**
     * The 6-bit scale, or with {@code min} the 6-bit minimum, of sub-block {@code j} of a Q4_K or Q5_K super-block, as
     * ggml's {@code get_scale_min_k4} unpacks them; for kernels that multiply these blocks in place.
     *
     * @param s the memory holding the super-block
     * @param scales byte offset of its 12 scale bytes (4 bytes after the super-block's start)
     * @param j the sub-block, 0..7 (32 values each)
     * @param min true for the minimum, false for the scale
     * @return 0..63
     */
    public static int scaleK4(MemorySegment s, long scales, int j, boolean min) {
        return KQuants.scaleK4(s, scales, j, min);
    }

    /**
     * The 6-bit scale (0..63; the multiplier is this less 32) of sub-block {@code j} of a Q3_K super-block, as ggml
     * unpacks it; for kernels that multiply these blocks in place.
     *
     * @param s the memory holding the super-block
     * @param scales byte offset of its 12 scale bytes (96 bytes after the super-block's start)
     * @param j the sub-block, 0..15 (16 values each)
     * @return 0..63
     */
    public static int scaleQ3K(MemorySegment s, long scales, int j) {
        return KQuants.scaleQ3K(s, scales, j);
    }

    private static void checkBlocks(int n) {
        if (n % BLOCK != 0) throw new IllegalArgumentException(n + " values is not a whole number of 32-value blocks");
    }
}
