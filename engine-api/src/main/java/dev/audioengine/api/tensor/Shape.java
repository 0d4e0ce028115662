package dev.audioengine.api.tensor;

import java.util.Arrays;

/**
 * A logical shape of rank 0..4, outermost dimension first (PyTorch order: [batch, channels, time]).
 * Immutable.
 */
public record Shape(long[] dims) {
    public static final int MAX_RANK = 4;

    public Shape {
        dims = dims.clone();
        if (dims.length > MAX_RANK) {
            throw new IllegalArgumentException("rank " + dims.length + " > " + MAX_RANK + ": " + Arrays.toString(dims));
        }
        for (long d : dims) {
            if (d < 0) throw new IllegalArgumentException("negative dimension in " + Arrays.toString(dims));
        }
    }

    public static Shape of(long... dims) {
        return new Shape(dims);
    }

    public static Shape of(int... dims) {
        return new Shape(Arrays.stream(dims).asLongStream().toArray());
    }

    public int rank() {
        return dims.length;
    }

    public long dim(int axis) {
        return dims[normalizeAxis(axis)];
    }

    public long[] dims() {
        return dims.clone();
    }

    public long elements() {
        long n = 1;
        for (long d : dims) n = Math.multiplyExact(n, d);
        return n;
    }

    /** Turns a negative axis (-1 = last) into an index; rejects out-of-range axes. */
    public int normalizeAxis(int axis) {
        int a = axis < 0 ? axis + dims.length : axis;
        if (a < 0 || a >= dims.length) {
            throw new IllegalArgumentException("axis " + axis + " out of range for shape " + this);
        }
        return a;
    }

    /** Row-major strides in elements. */
    public long[] contiguousStrides() {
        long[] s = new long[dims.length];
        long acc = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= Math.max(1, dims[i]);
        }
        return s;
    }

    public Shape with(int axis, long size) {
        long[] d = dims.clone();
        d[normalizeAxis(axis)] = size;
        return new Shape(d);
    }

    /** NumPy broadcasting of two shapes; throws with both shapes when incompatible. */
    public static Shape broadcast(Shape a, Shape b) {
        int rank = Math.max(a.rank(), b.rank());
        long[] out = new long[rank];
        for (int i = 0; i < rank; i++) {
            long da = i < rank - a.rank() ? 1 : a.dims[i - (rank - a.rank())];
            long db = i < rank - b.rank() ? 1 : b.dims[i - (rank - b.rank())];
            if (da != db && da != 1 && db != 1) {
                throw new IllegalArgumentException("shapes " + a + " and " + b + " do not broadcast");
            }
            out[i] = da == 1 ? db : da;
        }
        return new Shape(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape s && Arrays.equals(dims, s.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    @Override
    public String toString() {
        return Arrays.toString(dims);
    }
}
