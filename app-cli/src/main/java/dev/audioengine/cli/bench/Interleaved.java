package dev.audioengine.cli.bench;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * Times two implementations of one operation side by side in one process: after a warm-up
 * (both sides, at least {@link #WARMUP_RUNS} runs and {@link #WARMUP_SECONDS}, so the JIT has
 * compiled the Vector API loops), the runs alternate ours, peer, ours, peer... each on the next
 * input slot, so load changes on a shared machine hit both sides alike. Reports medians.
 */
final class Interleaved {
    static final int WARMUP_RUNS = 3;
    static final double WARMUP_SECONDS = 0.5;

    /** Median seconds of each side; peer is NaN when there is none. */
    record Medians(double ours, double peer, int runs) {}

    private Interleaved() {}

    /** {@code peer} may be null (ours alone). Each consumer gets the slot index to run on. */
    static Medians measure(IntConsumer ours, IntConsumer peer, int slots, int runs) {
        if (runs < 1) throw new IllegalArgumentException("runs must be >= 1, got " + runs);
        long start = System.nanoTime();
        for (int i = 0; i < WARMUP_RUNS || (System.nanoTime() - start < WARMUP_SECONDS * 1e9 && i < 200); i++) {
            ours.accept(i % slots);
            if (peer != null) peer.accept(i % slots);
        }
        double[] o = new double[runs], p = new double[runs];
        for (int i = 0; i < runs; i++) {
            int slot = i % slots;
            long t0 = System.nanoTime();
            ours.accept(slot);
            long t1 = System.nanoTime();
            if (peer != null) peer.accept(slot);
            long t2 = System.nanoTime();
            o[i] = (t1 - t0) / 1e9;
            p[i] = (t2 - t1) / 1e9;
        }
        return new Medians(median(o), peer == null ? Double.NaN : median(p), runs);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
