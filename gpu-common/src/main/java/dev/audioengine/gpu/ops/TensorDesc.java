package dev.audioengine.gpu.ops;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Arrays;

/**
 * The kernels' {@code struct TD { i64 n[4]; i64 s[4]; }} (ae_tensor.h): a view of rank <= 4 padded
 * on the left with size-1 axes, dims {@code n} and element strides {@code s}.
 */
record TensorDesc(long[] n, long[] s) {
    static final int RANK = 4;
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(RANK, JAVA_LONG).withName("n"),
            MemoryLayout.sequenceLayout(RANK, JAVA_LONG).withName("s"));

    TensorDesc {
        if (n.length != RANK || s.length != RANK)
            throw new IllegalArgumentException("a descriptor has 4 dims and 4 strides");
        n = n.clone();
        s = s.clone();
    }

    /** {@code dims} and {@code strides} of any rank <= 4, padded on the left. */
    static TensorDesc padded(long[] dims, long[] strides) {
        if (dims.length > RANK) throw new IllegalArgumentException("rank " + dims.length + " > 4");
        long[] n = new long[RANK], s = new long[RANK];
        int pad = RANK - dims.length;
        for (int i = 0; i < RANK; i++) {
            n[i] = i < pad ? 1 : dims[i - pad];
            s[i] = i < pad ? 0 : strides[i - pad];
        }
        return new TensorDesc(n, s);
    }

    /** The tensor's own view. */
    static TensorDesc of(Tensor t) {
        return padded(t.shape().dims(), t.strides());
    }

    /** A contiguous tensor of {@code shape}. */
    static TensorDesc contiguous(Shape shape) {
        return padded(shape.dims(), shape.contiguousStrides());
    }

    /** {@code t} read at the indices of {@code out} under NumPy broadcasting: stride 0 on broadcast axes. */
    static TensorDesc broadcast(Tensor t, Shape out) {
        int r = out.rank(), off = r - t.rank();
        long[] st = new long[r];
        for (int i = 0; i < r; i++) {
            int j = i - off;
            st[i] = j < 0 || t.dim(j) == 1 ? 0 : t.stride(j);
        }
        return padded(out.dims(), st);
    }

    /** {@code t} with {@code axis} moved last: rows over the other axes in order, the axis as the row. */
    static TensorDesc rows(Tensor t, int axis) {
        int r = t.rank(), ax = t.shape().normalizeAxis(axis);
        long[] d = new long[r], st = new long[r];
        for (int i = 0, j = 0; i < r; i++) {
            if (i == ax) continue;
            d[j] = t.dim(i);
            st[j++] = t.stride(i);
        }
        d[r - 1] = t.dim(ax);
        st[r - 1] = t.stride(ax);
        return padded(d, st);
    }

    /** Product of the first three dims: the row count of a row view. */
    long rowCount() {
        return n[0] * n[1] * n[2];
    }

    long elements() {
        return n[0] * n[1] * n[2] * n[3];
    }

    void write(MemorySegment dst) {
        for (int i = 0; i < RANK; i++) {
            dst.setAtIndex(JAVA_LONG, i, n[i]);
            dst.setAtIndex(JAVA_LONG, RANK + i, s[i]);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorDesc d && Arrays.equals(n, d.n) && Arrays.equals(s, d.s);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(n) + Arrays.hashCode(s);
    }

    @Override
    public String toString() {
        return "TD" + Arrays.toString(n) + Arrays.toString(s);
    }
}
