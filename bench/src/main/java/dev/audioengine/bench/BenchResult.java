package dev.audioengine.bench;

import java.util.Map;

/**
 * One benchmark case measured side by side: our GFLOP/s, the peer's, and ours / peer (NaN when
 * there is no peer). {@code extra} holds bench-specific figures in insertion order (for quant:
 * weight GB/s and the streaming-read bound).
 */
public record BenchResult(
        String bench,
        String backend,
        String shape,
        String dtype,
        int threads,
        double oursGflops,
        String peer,
        double peerGflops,
        double ratio,
        int runs,
        Map<String, Double> extra) {
    public BenchResult {
        extra = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(extra));
    }

    static BenchResult of(
            String bench,
            String backend,
            String shape,
            String dtype,
            int threads,
            double flops,
            String peer,
            Interleaved.Medians m,
            Map<String, Double> extra) {
        double ours = flops / m.ours() / 1e9, theirs = flops / m.peer() / 1e9;
        return new BenchResult(
                bench, backend, shape, dtype, threads, ours, peer, theirs, ours / theirs, m.runs(), extra);
    }
}
