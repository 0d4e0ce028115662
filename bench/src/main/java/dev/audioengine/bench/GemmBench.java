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
import java.util.List;
import java.util.Map;

/**
 * F32 matmul y[M, N] = x[M, K] · w[N, K]ᵀ (the engine's matmul op through the backend) against
 * OpenBLAS {@code cblas_sgemm(RowMajor, NoTrans, Trans)} on the same values.
 */
public final class GemmBench {
    /** {M, N, K}: square sizes, Whisper-base-like audio shapes (1500 frames x 384/1536) and a 4096 mat-vec. */
    static final int[][] CASES = {
        {512, 512, 512}, {1024, 1024, 1024}, {2048, 2048, 2048}, {1500, 384, 384}, {1500, 1536, 384}, {1, 4096, 4096}
    };

    static final int[][] SMOKE = {{7, 33, 16}, {1, 9, 32}};

    private GemmBench() {}

    public static List<BenchResult> run(BenchSettings s) {
        List<BenchResult> out = new ArrayList<>();
        for (int threads : s.threads()) {
            try (Backend backend = s.openBackend().apply(threads)) {
                for (int[] c : s.smoke() ? SMOKE : CASES) {
                    if (s.selected(c[0] + "x" + c[1] + "x" + c[2])) out.add(one(s, backend, threads, c[0], c[1], c[2]));
                }
            }
        }
        return out;
    }

    static BenchResult one(BenchSettings s, Backend backend, int threads, int m, int n, int k) {
        String shape = m + "x" + n + "x" + k;
        s.progress().accept("gemm " + shape + " threads " + threads);
        GraphBuilder g = new GraphBuilder();
        Graph graph = g.build(g.matmul(g.input("x", Shape.of(m, k)), g.input("w", Shape.of(n, k))));
        int slots = Fixtures.slots(4L * ((long) m * k + (long) n * k + (long) m * n), s.smoke());
        List<Map<String, HostTensor>> inputs = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[][] peer = new MemorySegment[slots][];
            for (int i = 0; i < slots; i++) {
                HostTensor x = Fixtures.tensor(DType.F32, Shape.of(m, k), 2L * i + 1),
                        w = Fixtures.tensor(DType.F32, Shape.of(n, k), 2L * i + 2);
                inputs.add(Map.of("x", x, "w", w));
                if (s.blas().blas().isPresent()) {
                    peer[i] = new MemorySegment[] {
                        Fixtures.nativeCopy(arena, x),
                        Fixtures.nativeCopy(arena, w),
                        Fixtures.nativeZeros(arena, (long) m * n)
                    };
                }
            }
            try (EngineRunner ours = new EngineRunner(backend, graph, inputs)) {
                inputs.forEach(v -> v.values().forEach(HostTensor::close));
                var blas = s.blas().blas().orElse(null);
                if (blas != null) blas.threads(threads);
                Interleaved.Medians med = Interleaved.measure(
                        ours::run,
                        blas == null
                                ? null
                                : i -> {
                                    MemorySegment[] p = peer[i];
                                    blas.sgemm(m, n, k, false, p[0], k, true, p[1], k, p[2], n);
                                },
                        slots,
                        s.runs());
                return BenchResult.of(
                        "gemm",
                        backend.registryName(),
                        shape,
                        "F32",
                        threads,
                        2.0 * m * n * k,
                        s.peerName(),
                        med,
                        Map.of());
            }
        }
    }
}
