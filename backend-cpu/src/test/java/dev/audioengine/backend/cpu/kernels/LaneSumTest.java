package dev.audioengine.backend.cpu.kernels;

import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

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
            assertThat(Float.floatToRawIntBits(got)).as("round %d, seed %d", round, seed).isEqualTo(Float.floatToRawIntBits(want));
            float sequential = 0;
            for (float x : v) sequential += x;
            if (sequential != want) orderMattered++;
        }
        assertThat(orderMattered).as("inputs where the order of the adds changes the result").isPositive();
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
