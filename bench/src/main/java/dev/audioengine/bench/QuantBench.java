package dev.audioengine.bench;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Quantized-weight matmul (Q8_0, Q4_0, Q5_0, Q5_1, Q4_1 weights, and the k-quants Q6_K, Q4_K, Q5_K, Q3_K, Q2_K where K is whole
 * 256-value super-blocks; F32 activations) through the engine, against the
 * same product in F32 on OpenBLAS. Besides GFLOP/s it reports GB/s of weight read (quantized
 * bytes for ours, F32 bytes for the peer) and, for the same thread count in the same run, the
 * streaming-read bound that a mat-vec can at best reach, its passes taking turns with the two
 * products so all three see the same machine load.
 */
public final class QuantBench {
    /** {M, N, K}: a 4096 mat-vec (decoder step) and an audio-encoder-sized product. */
    static final int[][] CASES = {{1, 4096, 4096}, {1500, 1536, 384}};

    static final int[][] SMOKE = {{1, 9, 64}, {7, 33, 32}, {1, 9, 256}};
    static final DType[] TYPES = {
        DType.Q8_0,
        DType.Q4_0,
        DType.Q5_0,
        DType.Q5_1,
        DType.Q4_1,
        DType.Q6_K,
        DType.Q4_K,
        DType.Q5_K,
        DType.Q3_K,
        DType.Q2_K
    };
    static final long STREAM_BYTES = 256L << 20, SMOKE_STREAM_BYTES = 1L << 20;

    private QuantBench() {}

    public static List<BenchResult> run(BenchSettings s) {
        List<BenchResult> out = new ArrayList<>();
        for (int threads : s.threads()) {
            try (Backend backend = s.openBackend().apply(threads);
                    StreamRead stream = new StreamRead(s.smoke() ? SMOKE_STREAM_BYTES : STREAM_BYTES, threads)) {
                for (int[] c : s.smoke() ? SMOKE : CASES) {
                    for (DType t : TYPES) {
                        if (c[2] % t.blockSize() != 0) continue; // k-quants: only K of whole super-blocks
                        if (s.selected(c[0] + "x" + c[1] + "x" + c[2]) || s.selected(t.name()))
                            out.add(one(s, backend, stream, threads, t, c[0], c[1], c[2]));
                    }
                }
            }
        }
        return out;
    }

    static BenchResult one(
            BenchSettings s, Backend backend, StreamRead stream, int threads, DType dtype, int m, int n, int k) {
        String shape = m + "x" + n + "x" + k;
        s.progress().accept("quant " + dtype + " " + shape + " threads " + threads);
        GraphBuilder g = new GraphBuilder();
        Graph graph = g.build(g.matmul(g.input("x", Shape.of(m, k)), g.input("w", dtype, Shape.of(n, k))));
        long weightBytes = dtype.bytesFor((long) n * k);
        int slots = Fixtures.slots(weightBytes + 4L * ((long) m * k + (long) m * n), s.smoke());
        List<Map<String, HostTensor>> inputs = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[][] peer = new MemorySegment[slots][];
            for (int i = 0; i < slots; i++) {
                float[] wv = Fixtures.uniform((long) n * k, 2L * i + 2);
                HostTensor x = Fixtures.tensor(DType.F32, Shape.of(m, k), 2L * i + 1);
                HostTensor w = HostTensor.convert(dtype, Shape.of(n, k), wv);
                inputs.add(Map.of("x", x, "w", w));
                if (s.blas().blas().isPresent()) {
                    try (HostTensor wf = HostTensor.convert(DType.F32, Shape.of(n, k), wv)) {
                        peer[i] = new MemorySegment[] {
                            Fixtures.nativeCopy(arena, x),
                            Fixtures.nativeCopy(arena, wf),
                            Fixtures.nativeZeros(arena, (long) m * n)
                        };
                    }
                }
            }
            try (EngineRunner ours = new EngineRunner(backend, graph, inputs)) {
                inputs.forEach(v -> v.values().forEach(HostTensor::close));
                var blas = s.blas().blas().orElse(null);
                if (blas != null) blas.threads(threads);
                List<IntConsumer> sides = new ArrayList<>(List.of(ours::run, i -> stream.pass()));
                if (blas != null) {
                    sides.add(i -> {
                        MemorySegment[] p = peer[i];
                        blas.sgemm(m, n, k, false, p[0], k, true, p[1], k, p[2], n);
                    });
                }
                double[] t = Interleaved.measureAll(sides, slots, s.runs());
                Interleaved.Medians med = new Interleaved.Medians(t[0], blas == null ? Double.NaN : t[2], s.runs());
                double bound = stream.bytes() / t[1] / 1e9;
                Map<String, Double> extra = new LinkedHashMap<>();
                double oursGbps = weightBytes / med.ours() / 1e9;
                extra.put("weight_gbps", oursGbps);
                extra.put("peer_weight_gbps", 4.0 * n * k / med.peer() / 1e9);
                extra.put("stream_gbps", bound);
                extra.put("bandwidth_fraction", oursGbps / bound);
                return BenchResult.of(
                        "quant",
                        backend.registryName(),
                        shape,
                        dtype.name(),
                        threads,
                        2.0 * m * n * k,
                        s.peerName() + " (F32 weights)",
                        med,
                        extra);
            }
        }
    }
}
