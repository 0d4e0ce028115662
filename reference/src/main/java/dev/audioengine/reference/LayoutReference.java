package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HalfFloats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The layout family: pad, concat, the views (slice, permute, reshape), contiguous, write_slice
 * (in place into a persistent tensor) and cast.
 */
final class LayoutReference {
    private LayoutReference() {}

    /**
     * Each output index maps, axis by axis, to a source index: ZERO reads {@code value} when any
     * axis falls outside, REFLECT mirrors about the edge without repeating it (PyTorch's reflect),
     * REPLICATE clamps to the edge.
     */
    static double[] pad(Tensor node, Op.Pad op, double[] x) {
        long[] in = node.input(0).shape().dims(), out = node.shape().dims();
        long[] inStrides = RowMajor.strides(in);
        int n = RowMajor.size(out);
        double[] y = new double[n];
        long[] idx = new long[out.length];
        for (int i = 0; i < n; i++) {
            long off = 0;
            boolean outside = false;
            for (int a = 0; a < out.length; a++) {
                long j = idx[a] - op.before()[a];
                if (j < 0 || j >= in[a]) {
                    switch (op.mode()) {
                        case ZERO -> outside = true;
                        case REFLECT -> j = j < 0 ? -j : 2 * (in[a] - 1) - j;
                        case REPLICATE -> j = j < 0 ? 0 : in[a] - 1;
                    }
                }
                off += j * inStrides[a];
            }
            y[i] = outside ? op.value() : x[(int) off];
            for (int a = out.length - 1; a >= 0; a--) {
                if (++idx[a] < out[a]) break;
                idx[a] = 0;
            }
        }
        return y;
    }

    static double[] concat(Tensor node, Op.Concat op, double[][] xs) {
        long[] out = node.shape().dims();
        int ax = op.axis();
        int outer = RowMajor.product(out, 0, ax), inner = RowMajor.product(out, ax + 1, out.length);
        double[] y = new double[RowMajor.size(out)];
        int pos = 0;
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < xs.length; i++) {
                int chunk = (int) node.input(i).dim(ax) * inner;
                System.arraycopy(xs[i], o * chunk, y, pos, chunk);
                pos += chunk;
            }
        }
        return y;
    }

    /**
     * What a correct cast stores, read back as numbers: F16/BF16 round to nearest even, I32
     * rounds half up like {@link Math#round(float)} (NaN becomes 0, out-of-range values
     * saturate), the block types quantize each 32-value block with ggml's rules. Casting to F32 is exact.
     */
    static double[] cast(DType to, double[] x) {
        double[] y = new double[x.length];
        switch (to) {
            case F32 -> System.arraycopy(x, 0, y, 0, x.length);
            case F16 -> {
                for (int i = 0; i < x.length; i++) y[i] = HalfFloats.f16ToFloat(HalfFloats.floatToF16((float) x[i]));
            }
            case BF16 -> {
                for (int i = 0; i < x.length; i++) y[i] = HalfFloats.bf16ToFloat(HalfFloats.floatToBf16((float) x[i]));
            }
            case I32 -> {
                for (int i = 0; i < x.length; i++) y[i] = Math.round((float) x[i]);
            }
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K -> {
                float[] f = new float[x.length];
                for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
                float[] back = new float[x.length];
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment blocks = arena.allocate(Math.max(1, to.bytesFor(x.length)));
                    BlockQuantization.quantize(to, f, 0, f.length, blocks, 0);
                    BlockQuantization.dequantize(to, blocks, 0, back, 0, back.length);
                }
                for (int i = 0; i < x.length; i++) y[i] = back[i];
            }
            case I8 -> throw new IllegalArgumentException("cast to I8 is not an op (GraphBuilder rejects it)");
        }
        return y;
    }

    /** A view's logical elements: storage[offset + Σ index_a · stride_a] in row-major order of its shape. */
    static double[] view(Tensor view, double[] storage) {
        long[] dims = view.shape().dims(), strides = view.strides();
        int n = RowMajor.size(dims);
        double[] y = new double[n];
        long[] idx = new long[dims.length];
        for (int i = 0; i < n; i++) {
            long off = view.offset();
            for (int a = 0; a < dims.length; a++) off += idx[a] * strides[a];
            y[i] = storage[(int) off];
            for (int a = dims.length - 1; a >= 0; a--) {
                if (++idx[a] < dims[a]) break;
                idx[a] = 0;
            }
        }
        return y;
    }

    /** The input's values (a view's already in row-major order of its shape), in a buffer of its own. */
    static double[] contiguous(double[] x) {
        return x.clone();
    }

    /**
     * dst with elements [start, start + len) along the axis replaced by src, stored as the
     * state's dtype holds them (F32: each value rounded to float). With a start per batch element
     * (I32 [B], B = dst's first dimension, axis &gt; 0) element b is written at start[b], and a
     * negative start[b] leaves element b as it was. Out of range is an error.
     */
    static double[] writeSlice(Tensor t, Op.WriteSlice op, double[] dst, double[] src, double[] start) {
        long[] dims = t.shape().dims();
        int ax = op.axis();
        long cap = dims[ax];
        long len = t.input(1).dim(ax);
        boolean perBatch = start != null && start.length > 1;
        long batches = perBatch ? dims[0] : 1;
        if (perBatch && (ax == 0 || start.length != batches)) {
            throw new IllegalArgumentException("write_slice with " + start.length + " starts into " + t.shape()
                    + " along axis " + ax + ": a start per batch element needs " + dims[0] + " and axis > 0");
        }
        long[] from = new long[(int) batches];
        for (int bi = 0; bi < batches; bi++) {
            from[bi] = start == null ? 0 : (long) start[bi];
            if ((from[bi] < 0 && !perBatch) || from[bi] + len > cap) {
                throw new IndexOutOfBoundsException("write_slice of " + len + " at " + from[bi]
                        + (perBatch ? " (batch element " + bi + ")" : "") + " outside the " + cap
                        + " positions of axis " + ax + " of " + t.storage().name() + " " + t.shape());
            }
        }
        double[] y = dst.clone();
        long inner = 1;
        for (int a = ax + 1; a < dims.length; a++) inner *= dims[a];
        long outer = 1;
        for (int a = 0; a < ax; a++) outer *= dims[a];
        long perElement = outer / batches; // outer rows of one batch element (all of them without per-batch starts)
        boolean f32 = t.dtype() == DType.F32;
        for (long o = 0; o < outer; o++) {
            long at = from[(int) (o / perElement)];
            if (at < 0) continue; // a skipped batch element
            for (long j = 0; j < len; j++) {
                for (long i = 0; i < inner; i++) {
                    double v = src[(int) ((o * len + j) * inner + i)];
                    y[(int) ((o * cap + at + j) * inner + i)] = f32 ? (double) (float) v : v;
                }
            }
        }
        return y;
    }
}
