package dev.audioengine.bench;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Times two implementations of one operation side by side in one process: after a warm-up
 * (each side on its own for at least {@link #WARMUP_RUNS} runs and {@link #WARMUP_SECONDS}, so
 * the JIT has compiled the Vector API loops), the runs alternate ours, peer, ours, peer... each on the next
 * input slot, so load changes on a shared machine hit both sides alike. Reports medians.
 */
final class Interleaved {
    static final int WARMUP_RUNS = 3;
    static final double WARMUP_SECONDS = 0.5;
    static final int MAX_WARMUP_RUNS = 2000;

    /** Median seconds of each side; peer is NaN when there is none. */
    record Medians(double ours, double peer, int runs) {}

    private Interleaved() {}

    /** {@code peer} may be null (ours alone). Each consumer gets the slot index to run on. */
    static Medians measure(IntConsumer ours, IntConsumer peer, int slots, int runs) {
        double[] m =
                peer == null ? measureAll(List.of(ours), slots, runs) : measureAll(List.of(ours, peer), slots, runs);
        return new Medians(m[0], peer == null ? Double.NaN : m[1], runs);
    }

    /** Median seconds of each side, the sides taking turns run by run. */
    static double[] measureAll(List<IntConsumer> sides, int slots, int runs) {
        if (runs < 1) throw new IllegalArgumentException("runs must be >= 1, got " + runs);
        System.gc(); // the inputs' generation left garbage; collect it now rather than during the timed runs (as JMH
        // does)
        for (IntConsumer side : sides) { // each side on its own, so a slow peer cannot cut our warm-up short
            long start = System.nanoTime();
            for (int i = 0;
                    i < WARMUP_RUNS || (System.nanoTime() - start < WARMUP_SECONDS * 1e9 && i < MAX_WARMUP_RUNS);
                    i++) {
                side.accept(i % slots);
            }
        }
        double[][] t = new double[sides.size()][runs];
        for (int i = 0; i < runs; i++) {
            for (int s = 0; s < sides.size(); s++) {
                long t0 = System.nanoTime();
                sides.get(s).accept(i % slots);
                t[s][i] = (System.nanoTime() - t0) / 1e9;
            }
        }
        double[] medians = new double[sides.size()];
        for (int s = 0; s < medians.length; s++) medians[s] = median(t[s]);
        return medians;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
