package dev.audioengine.backend.cpu.kernels;

import jdk.incubator.vector.FloatVector;

/**
 * The sum of a float vector's lanes in one fixed order (a halving tree), so the interpreter and
 * every JIT tier give the same bits. {@code reduceLanes(ADD)} may add the lanes in a different
 * order once compiled, which made the same product differ in its last bits between two runs of
 * one process (check's same-seed test caught it on a mat-vec).
 * <p>
 * Callers store the vector first ({@code v.intoArray(lanes, off)}) and pass the array: a helper
 * that takes a vector is compiled on its own once it is hot, is then too big to inline, and
 * every vector passed to it is boxed. With the vector form, a Q8_0 mat-vec ran at a quarter of
 * its speed (4 against 16 GB/s).
 */
final class LaneSum {
    static final int L = FloatVector.SPECIES_PREFERRED.length();

    private LaneSum() {}

    /** Σ lanes[off, off + L) as lane i += lane i + d for d = L/2, ..., 1 (overwrites them). */
    static float of(float[] lanes, int off) {
        for (int d = L / 2; d >= 1; d /= 2) for (int i = 0; i < d; i++) lanes[off + i] += lanes[off + i + d];
        return lanes[off];
    }
}
