package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/** Persistent tensors: reading a state leaf, writing into one in place, and the mask of a cache holding some keys. */
final class StateReference {
    private StateReference() {}

    static double[] read(Tensor t, Op.State s, ReferenceState state) {
        if (!state.has(s.name())) {
            throw new IllegalArgumentException("reference evaluation needs state '" + s.name() + "' (" + t.dtype() + " " + t.shape() + ")");
        }
        if (state.dtype(s.name()) != t.dtype() || !state.shape(s.name()).equals(t.shape())) {
            throw new IllegalArgumentException("state '" + s.name() + "' must be " + t.dtype() + " " + t.shape() + ", the reference holds "
                    + state.dtype(s.name()) + " " + state.shape(s.name()));
        }
        return state.values(s.name());
    }

    /**
     * dst with elements [start, start + len) along the axis replaced by src, stored as the
     * state's dtype holds them (F32: each value rounded to float). Out of range is an error.
     */
    static double[] writeSlice(Tensor t, Op.WriteSlice op, double[] dst, double[] src, double[] start) {
        long[] dims = t.shape().dims();
        int ax = op.axis();
        long cap = dims[ax];
        long len = t.input(1).dim(ax);
        long from = start == null ? 0 : (long) start[0];
        if (from < 0 || from + len > cap) {
            throw new IndexOutOfBoundsException("write_slice of " + len + " at " + from + " outside the " + cap
                    + " positions of axis " + ax + " of " + t.storage().name() + " " + t.shape());
        }
        double[] y = dst.clone();
        long inner = 1;
        for (int a = ax + 1; a < dims.length; a++) inner *= dims[a];
        long outer = 1;
        for (int a = 0; a < ax; a++) outer *= dims[a];
        boolean f32 = t.dtype() == DType.F32;
        for (long o = 0; o < outer; o++) {
            for (long j = 0; j < len; j++) {
                for (long i = 0; i < inner; i++) {
                    double v = src[(int) ((o * len + j) * inner + i)];
                    y[(int) ((o * cap + from + j) * inner + i)] = f32 ? (double) (float) v : v;
                }
            }
        }
        return y;
    }

    /** 0 where query i sees key j of a cache holding {@code length} keys, -inf elsewhere. */
    static double[] keyMask(Tensor t, Op.KeyMask op, double[] length) {
        int tq = (int) t.dim(0), tk = (int) t.dim(1);
        long len = (long) length[0];
        double[] y = new double[tq * tk];
        for (int i = 0; i < tq; i++) {
            long visible = op.causal() ? len - (tq - 1 - i) : len;
            for (int j = 0; j < tk; j++) y[i * tk + j] = j < visible ? 0 : Double.NEGATIVE_INFINITY;
        }
        return y;
    }
}
