package dev.audioengine.weights;

import dev.audioengine.api.tensor.BlockQuantization;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * ggml's block-quantized types other than Q8_0 and Q4_0 (q4_1, q5_0, q5_1 and the k-quants q2_K to q6_K), dequantized
 * to F32 by block for this module's test against ggml itself: the engine has its own type of each and reads their
 * blocks as they are, so the dequantization here is {@link BlockQuantization}'s (one decode), and that test covers
 * it. Layouts from ggml's {@code ggml-common.h}, arithmetic from its {@code dequantize_row_*}.
 */
final class GgmlBlocks {
    private GgmlBlocks() {}

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
            case Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K, Q2_K, Q3_K -> t.dtype.blockBytes();
            default -> throw new IllegalArgumentException(t + " is not dequantized here");
        };
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
                case Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K, Q2_K, Q3_K ->
                    BlockQuantization.dequantize(t.dtype, src, x, y, 0, values);
                default -> throw new IllegalArgumentException(t + " is not dequantized here");
            }
            MemorySegment.copy(y, 0, dst, F32, to + b * values * 4L, values);
        }
    }
}
