package dev.audioengine.api.audio;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** The resampler's inner product with the Vector API; loaded only when jdk.incubator.vector is in the boot layer. */
final class VectorDot {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    private VectorDot() {}

    /** Σ h[hOff+i]·x[xOff+i] for i < n; n is a multiple of {@link PolyphaseFilter#ROW_MULTIPLE}. */
    static float dot(float[] h, int hOff, float[] x, int xOff, int n) {
        int lanes = S.length();
        FloatVector a0 = FloatVector.zero(S), a1 = FloatVector.zero(S);
        int i = 0;
        for (; i + 2 * lanes <= n; i += 2 * lanes) {
            a0 = FloatVector.fromArray(S, h, hOff + i).fma(FloatVector.fromArray(S, x, xOff + i), a0);
            a1 = FloatVector.fromArray(S, h, hOff + i + lanes).fma(FloatVector.fromArray(S, x, xOff + i + lanes), a1);
        }
        for (; i < n; i += lanes) a0 = FloatVector.fromArray(S, h, hOff + i).fma(FloatVector.fromArray(S, x, xOff + i), a0);
        return a0.add(a1).reduceLanes(VectorOperators.ADD);
    }
}
