package dev.audioengine.backend.vulkan.pipeline;

import dev.audioengine.api.graph.Tensor;
import java.util.Arrays;

/** Builds a shader's push-constant words in the order its source documents. */
public final class Push {
    private final int[] words = new int[Pipelines.PUSH_CONSTANT_BYTES / 4];
    private int size;

    public Push u(long v) {
        if (v < 0 || v > 0xFFFFFFFFL) throw new IllegalArgumentException("push constant out of uint range: " + v);
        words[size++] = (int) v;
        return this;
    }

    /** A signed value (paddings, positions relative to an edge). */
    public Push s(long v) {
        words[size++] = Math.toIntExact(v);
        return this;
    }

    public Push f(float v) {
        words[size++] = Float.floatToRawIntBits(v);
        return this;
    }

    public Push u4(long[] v) {
        for (long x : v) u(x);
        return this;
    }

    public int[] words() {
        return Arrays.copyOf(words, size);
    }

    /** The shape right-aligned into four axes, leading axes 1. */
    public static long[] dims4(long[] dims) {
        long[] d = {1, 1, 1, 1};
        System.arraycopy(dims, 0, d, 4 - dims.length, dims.length);
        return d;
    }

    /**
     * t's strides laid over a four-axis output shape (right-aligned, NumPy broadcasting):
     * axes t lacks, and size-1 axes of t, get stride 0.
     */
    public static long[] strides4(Tensor t, long[] out4) {
        long[] s = new long[4];
        int shift = 4 - t.rank();
        for (int a = 0; a < 4; a++) {
            int ta = a - shift;
            s[a] = ta < 0 || t.dim(ta) == 1 ? 0 : t.stride(ta);
        }
        return s;
    }
}
