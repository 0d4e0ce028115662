package dev.audioengine.reference;

/** Index arithmetic on row-major arrays: sizes, strides, and where a broadcast operand's value sits. */
final class RowMajor {
    private RowMajor() {}

    static int size(long[] dims) {
        long n = 1;
        for (long d : dims) n = Math.multiplyExact(n, d);
        return Math.toIntExact(n);
    }

    static long[] strides(long[] dims) {
        long[] s = new long[dims.length];
        long acc = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= dims[i];
        }
        return s;
    }

    /** Product of dims[from..to). */
    static int product(long[] dims, int from, int to) {
        long n = 1;
        for (int i = from; i < to; i++) n *= dims[i];
        return Math.toIntExact(n);
    }

    /**
     * For every row-major index of {@code out}, the row-major index in an operand of shape
     * {@code src} that NumPy broadcasting reads (axes aligned on the right, size-1 axes repeated).
     */
    static int[] broadcastIndex(long[] out, long[] src) {
        int n = size(out);
        int shift = out.length - src.length;
        long[] srcStrides = strides(src);
        int[] map = new int[n];
        long[] idx = new long[out.length];
        for (int i = 0; i < n; i++) {
            long off = 0;
            for (int a = 0; a < src.length; a++) {
                if (src[a] != 1) off += idx[a + shift] * srcStrides[a];
            }
            map[i] = (int) off;
            for (int a = out.length - 1; a >= 0; a--) {
                if (++idx[a] < out[a]) break;
                idx[a] = 0;
            }
        }
        return map;
    }
}
