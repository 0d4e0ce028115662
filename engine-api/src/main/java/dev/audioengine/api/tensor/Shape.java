package dev.audioengine.api.tensor;

import java.util.Arrays;

/**
 * A logical shape of rank 0..4, outermost dimension first (PyTorch order: [batch, channels, time]).
 * Immutable.
 *
 * @param dims the size of each dimension, outermost first; 0 to {@link #MAX_RANK} entries, each {@code >= 0} (a
 *     zero-size dimension is allowed and makes an empty tensor; an empty array is a scalar). The array is copied in
 *     and {@link #dims()} returns a copy, so neither side can change the shape afterwards
 */
public record Shape(long[] dims) {
    /** The highest rank a shape may have; every backend's kernels index at most four dimensions. */
    public static final int MAX_RANK = 4;

    /**
     * Checks and copies the dimensions.
     *
     * @throws IllegalArgumentException if there are more than {@link #MAX_RANK} dimensions or one is negative
     */
    public Shape {
        dims = dims.clone();
        if (dims.length > MAX_RANK) {
            throw new IllegalArgumentException("rank " + dims.length + " > " + MAX_RANK + ": " + Arrays.toString(dims));
        }
        for (long d : dims) {
            if (d < 0) throw new IllegalArgumentException("negative dimension in " + Arrays.toString(dims));
        }
    }

    /**
     * The shape with these dimensions, outermost first: {@code Shape.of(1, 80, 3000)} is one 80-bin, 3000-frame
     * spectrogram.
     *
     * @param dims 0 to {@link #MAX_RANK} sizes, each {@code >= 0}; copied
     * @return a new shape; equal to any other of the same dimensions
     * @throws IllegalArgumentException if the rank is above {@link #MAX_RANK} or a size is negative
     */
    public static Shape of(long... dims) {
        return new Shape(dims);
    }

    /**
     * {@link #of(long...)} for {@code int} sizes, so literals need no {@code L} suffix.
     *
     * @param dims 0 to {@link #MAX_RANK} sizes, each {@code >= 0}
     * @return a new shape, equal to {@code of(long...)} of the same sizes
     * @throws IllegalArgumentException if the rank is above {@link #MAX_RANK} or a size is negative
     */
    public static Shape of(int... dims) {
        return new Shape(Arrays.stream(dims).asLongStream().toArray());
    }

    /**
     * The number of dimensions.
     *
     * @return 0 (a scalar) to {@link #MAX_RANK}
     */
    public int rank() {
        return dims.length;
    }

    /**
     * The size of one dimension.
     *
     * @param axis 0 for the outermost, or negative to count from the innermost ({@code -1} is the last)
     * @return the size along {@code axis}, {@code >= 0}
     * @throws IllegalArgumentException if the axis is outside {@code [-rank, rank)}
     */
    public long dim(int axis) {
        return dims[normalizeAxis(axis)];
    }

    /**
     * The sizes, outermost first.
     *
     * @return a fresh copy; changing it does not change this shape
     */
    public long[] dims() {
        return dims.clone();
    }

    /**
     * The number of elements: the product of the dimensions.
     *
     * @return 1 for a scalar, 0 when any dimension is 0
     * @throws ArithmeticException if the product overflows a {@code long}
     */
    public long elements() {
        long n = 1;
        for (long d : dims) n = Math.multiplyExact(n, d);
        return n;
    }

    /**
     * Turns a negative axis (-1 = last) into an index; rejects out-of-range axes.
     *
     * @param axis an axis in {@code [-rank, rank)}
     * @return the same axis in {@code [0, rank)}
     * @throws IllegalArgumentException if the axis is out of range, naming the axis and this shape
     */
    public int normalizeAxis(int axis) {
        int a = axis < 0 ? axis + dims.length : axis;
        if (a < 0 || a >= dims.length) {
            throw new IllegalArgumentException("axis " + axis + " out of range for shape " + this);
        }
        return a;
    }

    /**
     * Row-major strides in elements.
     *
     * @return one stride per dimension, the innermost 1; a zero-size dimension counts as size 1 here, so the strides
     *     stay non-zero
     */
    public long[] contiguousStrides() {
        long[] s = new long[dims.length];
        long acc = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= Math.max(1, dims[i]);
        }
        return s;
    }

    /**
     * This shape with one dimension resized, e.g. the time axis of a chunk.
     *
     * @param axis the dimension to change, negative counting from the innermost
     * @param size its new size, {@code >= 0}
     * @return a new shape; this one is unchanged
     * @throws IllegalArgumentException if the axis is out of range or the size negative
     */
    public Shape with(int axis, long size) {
        long[] d = dims.clone();
        d[normalizeAxis(axis)] = size;
        return new Shape(d);
    }

    /**
     * NumPy broadcasting of two shapes; throws with both shapes when incompatible.
     *
     * @param a one operand's shape
     * @param b the other operand's shape; the order does not matter
     * @return the shape of an elementwise result: the higher rank, each dimension the larger of the two aligned sizes
     *     (shorter shapes are aligned at the innermost end)
     * @throws IllegalArgumentException if two aligned sizes differ and neither is 1
     */
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
