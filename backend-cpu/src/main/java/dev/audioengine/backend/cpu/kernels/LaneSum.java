package dev.audioengine.backend.cpu.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The sum of a float vector's lanes in one fixed order (a halving tree of lane-wise adds), so the
 * interpreter and every JIT tier give the same bits. {@code reduceLanes(ADD)} may add the lanes
 * in a different order once compiled, which made the same product differ in its last bits
 * between two runs of one process (check's same-seed test caught it on a mat-vec).
 */
final class LaneSum {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final VectorShuffle<Float> X1 = swap(1), X2 = swap(2), X4 = swap(4), X8 = swap(8), X16 = swap(16), X32 = swap(32);

    private LaneSum() {}

    private static VectorShuffle<Float> swap(int d) { return d < L ? VectorShuffle.fromOp(S, i -> i ^ d) : null; }

    static float of(FloatVector v) {
        if (L > 64) throw new IllegalStateException(L + "-lane float vectors are not supported");
        if (L > 32) v = v.add(v.rearrange(X32));
        if (L > 16) v = v.add(v.rearrange(X16));
        if (L > 8) v = v.add(v.rearrange(X8));
        if (L > 4) v = v.add(v.rearrange(X4));
        if (L > 2) v = v.add(v.rearrange(X2));
        if (L > 1) v = v.add(v.rearrange(X1));
        return v.lane(0);
    }
}
