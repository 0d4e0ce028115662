package dev.audioengine.audio;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/** The resampler's inner product with the Vector API; loaded only when jdk.incubator.vector is in the boot layer. */
final class VectorDot {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    /** Lane i paired with lane i ^ w, for w = width/2, width/4, ..., 1: a summation tree fixed by the code. */
    private static final VectorShuffle<Float> HALF = swap(S.length() / 2),
            QUARTER = swap(S.length() / 4),
            EIGHTH = swap(S.length() / 8),
            SIXTEENTH = swap(S.length() / 16);

    private VectorDot() {}

    private static VectorShuffle<Float> swap(int w) {
        return w < 1 ? null : VectorShuffle.fromOp(S, i -> i ^ w);
    }

    /**
     * Σ h[hOff+i]·x[xOff+i] for i < n; n is a multiple of {@link PolyphaseFilter#ROW_MULTIPLE}.
     * The lanes are summed in a tree fixed here, not by reduceLanes, whose order is left open (and
     * differs between interpreted and compiled code): the same input always gives the same samples.
     */
    static float dot(float[] h, int hOff, float[] x, int xOff, int n) {
        int width = S.length();
        FloatVector a0 = FloatVector.zero(S), a1 = FloatVector.zero(S);
        int i = 0;
        for (; i + 2 * width <= n; i += 2 * width) {
            a0 = FloatVector.fromArray(S, h, hOff + i).fma(FloatVector.fromArray(S, x, xOff + i), a0);
            a1 = FloatVector.fromArray(S, h, hOff + i + width).fma(FloatVector.fromArray(S, x, xOff + i + width), a1);
        }
        for (; i < n; i += width)
            a0 = FloatVector.fromArray(S, h, hOff + i).fma(FloatVector.fromArray(S, x, xOff + i), a0);
        FloatVector v = a0.add(a1);
        if (HALF != null) v = v.add(v.rearrange(HALF));
        if (QUARTER != null) v = v.add(v.rearrange(QUARTER));
        if (EIGHTH != null) v = v.add(v.rearrange(EIGHTH));
        if (SIXTEENTH != null) v = v.add(v.rearrange(SIXTEENTH));
        return v.lane(0);
    }
}
