package dev.audioengine.blocks.weights;

import java.util.Arrays;

/** NumPy-broadcast elementwise arithmetic over folded values, in float as ONNX Runtime computes it. */
final class Broadcast {
    private Broadcast() {}

    static Folded apply(String op, Folded a, Folded b, String source) {
        long[] shape = shape(a.shape(), b.shape(), op, source);
        int r = shape.length;
        long[] sa = aligned(a.shape(), r), sb = aligned(b.shape(), r);
        long[] stA = Folded.strides(sa), stB = Folded.strides(sb);
        long n = 1;
        for (long d : shape) n *= d;
        float[] out = new float[Math.toIntExact(n)];
        float[] va = a.values(), vb = b.values();
        long[] idx = new long[r];
        for (int i = 0; i < out.length; i++) {
            long ia = 0, ib = 0;
            for (int d = 0; d < r; d++) {
                if (sa[d] != 1) ia += idx[d] * stA[d];
                if (sb[d] != 1) ib += idx[d] * stB[d];
            }
            float x = va[(int) ia], y = vb[(int) ib];
            out[i] = switch (op) {
                case "Add" -> x + y;
                case "Sub" -> x - y;
                case "Mul" -> x * y;
                case "Div" -> x / y;
                default -> throw new IllegalArgumentException("no elementwise op " + op);
            };
            for (int d = r - 1; d >= 0; d--) {
                if (++idx[d] < shape[d]) break;
                idx[d] = 0;
            }
        }
        return new Folded(shape, out);
    }

    private static long[] aligned(long[] s, int rank) {
        long[] out = new long[rank];
        Arrays.fill(out, 1);
        System.arraycopy(s, 0, out, rank - s.length, s.length);
        return out;
    }

    private static long[] shape(long[] a, long[] b, String op, String source) {
        int r = Math.max(a.length, b.length);
        long[] x = aligned(a, r), y = aligned(b, r), out = new long[r];
        for (int i = 0; i < r; i++) {
            if (x[i] != y[i] && x[i] != 1 && y[i] != 1) {
                throw new IllegalArgumentException(source + ": " + op + " of shapes " + Arrays.toString(a) + " and "
                        + Arrays.toString(b) + " does not broadcast");
            }
            out[i] = Math.max(x[i], y[i]);
        }
        return out;
    }
}
