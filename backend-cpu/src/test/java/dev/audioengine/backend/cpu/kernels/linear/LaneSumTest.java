package dev.audioengine.backend.cpu.kernels.linear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

/**
 * LaneSum adds lanes in one fixed halving tree: checked bit for bit against the same tree in
 * scalar Java, on values of mixed magnitude where another order gives other bits, many times
 * over so the comparison also runs after the JIT has compiled LaneSum.
 */
class LaneSumTest {
    @Test
    void addsLanesInTheFixedHalvingTree() {
        int l = FloatVector.SPECIES_PREFERRED.length();
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[l];
        int orderMattered = 0;
        for (int round = 0; round < 20_000; round++) {
            for (int i = 0; i < l; i++) v[i] = (float) (r.nextDouble(-1, 1) * Math.pow(10, r.nextInt(-3, 9)));
            float want = tree(v.clone());
            float got = LaneSum.of(v.clone(), 0);
            assertThat(Float.floatToRawIntBits(got))
                    .as("round %d, seed %d", round, seed)
                    .isEqualTo(Float.floatToRawIntBits(want));
            float sequential = 0;
            for (float x : v) sequential += x;
            if (sequential != want) orderMattered++;
        }
        assertThat(orderMattered)
                .as("inputs where the order of the adds changes the result")
                .isPositive();
    }

    @Test
    void eightSumsGiveTheTreesBits() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                FloatVector.SPECIES_PREFERRED.length() == 16, "the eight-sum tree is for 16-lane vectors");
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        float[] lanes = new float[128], out = new float[3 + 7 * 5 + 1];
        for (int round = 0; round < 20_000; round++) {
            for (int i = 0; i < lanes.length; i++)
                lanes[i] = (float) (r.nextDouble(-1, 1) * Math.pow(10, r.nextInt(-3, 9)));
            float[] want = new float[8];
            for (int q = 0; q < 8; q++) want[q] = tree(java.util.Arrays.copyOfRange(lanes, 16 * q, 16 * q + 16));
            LaneSum.ofEightSixteens(lanes, out, 3, 5);
            for (int q = 0; q < 8; q++) {
                assertThat(Float.floatToRawIntBits(out[3 + 5 * q]))
                        .as("round %d, sum %d, seed %d", round, q, seed)
                        .isEqualTo(Float.floatToRawIntBits(want[q]));
            }
        }
    }

    /** lane i += lane i ^ d for d = L/2, ..., 1; the result is in lane 0. */
    private static float tree(float[] v) {
        for (int d = v.length / 2; d >= 1; d /= 2) {
            float[] next = new float[v.length];
            for (int i = 0; i < v.length; i++) next[i] = v[i] + v[i ^ d];
            v = next;
        }
        return v[0];
    }
}
