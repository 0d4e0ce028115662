package dev.audioengine.weights;

import dev.audioengine.api.tensor.BlockQuantization;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * ggml's block-quantized types that the engine has no type of its own for (the k-quants q2_K and q3_K), dequantized to
 * F32 when a file is opened: the fallback that lets a user's quantized whisper.cpp file load and run at F32's cost in
 * memory (the engine's own Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K and Q5_K share ggml's layout and are read as they
 * are; their dequantization here is {@link BlockQuantization}'s, so that this class's test against ggml covers it too). Written
 * from the block layouts of ggml's {@code ggml-common.h} and the arithmetic of its {@code dequantize_row_*}: each
 * block holds F16 scales (and minimums) and packed small integers; k-quant super-blocks of 256 values carry 6- or
 * 8-bit sub-block scales.
 */
final class GgmlBlocks {
    private GgmlBlocks() {}

    private static final ValueLayout.OfShort F16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** Values per block of a ggml type this class dequantizes, or 0 for any other type. */
    static int blockValues(GgmlType t) {
        return switch (t) {
            case Q4_1, Q5_0, Q5_1 -> 32;
            case Q2_K, Q3_K, Q4_K, Q5_K, Q6_K -> 256;
            default -> 0;
        };
    }

    /** Bytes per block of a ggml type this class dequantizes. */
    static int blockBytes(GgmlType t) {
        return switch (t) {
            case Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K -> t.dtype.blockBytes();
            case Q2_K -> 84; // 16 scale/min bytes, 64 bytes of 2-bit values, d, dmin
            case Q3_K -> 110; // 32 bytes of high bits, 64 of 2-bit values, 12 of 6-bit scales, d
            default -> throw new IllegalArgumentException(t + " is not dequantized here");
        };
    }

    private static float h(MemorySegment s, long at) {
        return Float.float16ToFloat(s.get(F16, at));
    }

    private static int u8(MemorySegment s, long at) {
        return s.get(ValueLayout.JAVA_BYTE, at) & 0xFF;
    }

    /**
     * Dequantizes {@code blocks} consecutive blocks of type {@code t} from {@code src} at {@code from} into F32 values
     * in {@code dst} at {@code to} (byte offsets).
     */
    static void dequantize(GgmlType t, MemorySegment src, long from, long blocks, MemorySegment dst, long to) {
        int bytes = blockBytes(t), values = blockValues(t);
        float[] y = new float[values];
        for (long b = 0; b < blocks; b++) {
            long x = from + b * bytes;
            switch (t) {
                case Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K -> BlockQuantization.dequantize(t.dtype, src, x, y, 0, values);
                case Q2_K -> q2K(src, x, y);
                case Q3_K -> q3K(src, x, y);
                default -> throw new IllegalArgumentException(t + " is not dequantized here");
            }
            MemorySegment.copy(y, 0, dst, F32, to + b * values * 4L, values);
        }
    }

    private static void q2K(MemorySegment s, long x, float[] y) {
        long scales = x, qs = x + 16;
        float d = h(s, x + 80), min = h(s, x + 82);
        int k = 0, is = 0;
        for (int n = 0; n < 256; n += 128, qs += 32) {
            for (int shift = 0; shift < 8; shift += 2) {
                for (int half = 0; half < 2; half++) {
                    int sc = u8(s, scales + is++);
                    float dl = d * (sc & 0xF), ml = min * (sc >> 4);
                    for (int l = 0; l < 16; l++) y[k++] = dl * ((u8(s, qs + half * 16 + l) >> shift) & 3) - ml;
                }
            }
        }
    }

    private static void q3K(MemorySegment s, long x, float[] y) {
        long hmask = x, qs = x + 32, sc = x + 96;
        float dAll = h(s, x + 108);
        // twelve bytes hold sixteen 6-bit scales: low nibbles in bytes 0-7, high 2 bits in bytes 8-11
        int a0 = s.get(I32, sc), a1 = s.get(I32, sc + 4), tmp = s.get(I32, sc + 8);
        int k1 = 0x03030303, k2 = 0x0f0f0f0f;
        int[] aux = {
            (a0 & k2) | (((tmp) & k1) << 4),
            (a1 & k2) | (((tmp >>> 2) & k1) << 4),
            ((a0 >>> 4) & k2) | (((tmp >>> 4) & k1) << 4),
            ((a1 >>> 4) & k2) | (((tmp >>> 6) & k1) << 4)
        };
        int k = 0, is = 0, m = 1;
        for (int n = 0; n < 256; n += 128, qs += 32) {
            for (int shift = 0; shift < 8; shift += 2, m <<= 1) {
                for (int half = 0; half < 2; half++) {
                    int scale = ((aux[is >> 2] >>> (8 * (is & 3))) & 0xFF) - 32;
                    is++;
                    float dl = dAll * scale;
                    for (int l = 0; l < 16; l++) {
                        int i = half * 16 + l;
                        int q = (u8(s, qs + i) >> shift) & 3;
                        y[k++] = dl * (q - ((u8(s, hmask + i) & m) != 0 ? 0 : 4));
                    }
                }
            }
        }
    }
}
