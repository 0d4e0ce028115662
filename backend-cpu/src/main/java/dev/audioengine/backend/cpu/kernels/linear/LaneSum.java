package dev.audioengine.backend.cpu.kernels.linear;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The sum of a float vector's lanes in one fixed order (a halving tree), so the interpreter and
 * every JIT tier give the same bits. {@code reduceLanes(ADD)} may add the lanes in a different
 * order once compiled, which made the same product differ in its last bits between two runs of
 * one process (check's same-seed test caught it on a mat-vec).
 * <p>
 * Callers store the vector first ({@code v.intoArray(lanes, off)}) and pass the array: a helper
 * that takes a vector is compiled on its own once it is hot, is then too big to inline, and
 * every vector passed to it is boxed. With the vector form, a Q8_0 mat-vec ran at a fraction of
 * its speed.
 */
public final class LaneSum {
    static final int L = FloatVector.SPECIES_PREFERRED.length();

    private LaneSum() {}

    /** Σ lanes[off, off + L) as lane i += lane i + d for d = L/2, ..., 1 (overwrites them). */
    public static float of(float[] lanes, int off) {
        for (int d = L / 2; d >= 1; d /= 2) for (int i = 0; i < d; i++) lanes[off + i] += lanes[off + i + d];
        return lanes[off];
    }

    private static final VectorSpecies<Float> HALF = FloatVector.SPECIES_256,
            QUARTER = FloatVector.SPECIES_128,
            EIGHTH = FloatVector.SPECIES_64;

    /**
     * {@link #of} for eight 16-lane vectors stored back to back at lanes[0, 128) (overwrites them):
     * out[j + q * ld] = Σ lanes[16q, 16q + 16), the same tree and so the same bits, its first three
     * levels as 8-, 4- and 2-lane vector adds. The eight-row mat-vec kernels reduce eight sums per
     * row group; on rows of a few hundred values the scalar tree (15 dependent adds through memory
     * per sum) cost about a third of the kernel's time.
     */
    static void ofEightSixteens(float[] lanes, float[] out, int j, int ld) {
        ofEightSixteens(lanes, 0, out, j, ld);
    }

    /** {@link #ofEightSixteens(float[], float[], int, int)} for the eight vectors at lanes[off, off + 128). */
    public static void ofEightSixteens(float[] lanes, int off, float[] out, int j, int ld) {
        if (L != 16) throw new IllegalStateException("the eight-sum tree needs 16-lane float vectors, not " + L);
        for (int q = off; q < off + 128; q += 16) {
            FloatVector.fromArray(HALF, lanes, q)
                    .add(FloatVector.fromArray(HALF, lanes, q + 8))
                    .intoArray(lanes, q);
        }
        for (int q = off; q < off + 128; q += 16) {
            FloatVector.fromArray(QUARTER, lanes, q)
                    .add(FloatVector.fromArray(QUARTER, lanes, q + 4))
                    .intoArray(lanes, q);
        }
        for (int q = off; q < off + 128; q += 16) {
            FloatVector.fromArray(EIGHTH, lanes, q)
                    .add(FloatVector.fromArray(EIGHTH, lanes, q + 2))
                    .intoArray(lanes, q);
        }
        for (int q = 0; q < 8; q++) out[j + q * ld] = lanes[off + 16 * q] + lanes[off + 16 * q + 1];
    }
}
