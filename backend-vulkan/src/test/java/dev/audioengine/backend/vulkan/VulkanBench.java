package dev.audioengine.backend.vulkan;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.conformance.GuardedExecution;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;

/**
 * Throughput of the Vulkan backend beside the CPU backend in one run (not a test: no timing is
 * asserted anywhere). Each graph is compiled once and replayed; a replay is one submit and one
 * fence wait on Vulkan. Usage: VulkanBench [square matmul sizes...] (default 256 512 1024).
 * Prints one line per (graph, backend): median of the replays, and GFLOP/s for matmul.
 * {@code -Dbench.backends=VULKAN,CUDA} picks the backend types (default VULKAN,CPU), so Vulkan
 * can be measured beside cuBLASLt in one run on an NVIDIA machine.
 */
public final class VulkanBench {
    private VulkanBench() {}

    public static void main(String[] args) {
        List<Integer> sizes = new ArrayList<>();
        for (String a : args) sizes.add(Integer.parseInt(a));
        if (sizes.isEmpty()) sizes = List.of(256, 512, 1024);
        List<BackendType> wanted = java.util.Arrays.stream(
                        System.getProperty("bench.backends", "VULKAN,CPU").split(","))
                .map(String::trim)
                .map(BackendType::valueOf)
                .toList();
        Map<String, BackendProvider> providers = new LinkedHashMap<>();
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class)) {
            if (wanted.contains(p.type())) providers.put(p.registryName(), p);
        }
        for (BackendProvider p : providers.values()) {
            if (!p.probe().available()) {
                System.out.println(
                        p.registryName() + ": unavailable: " + p.probe().reason());
                continue;
            }
            try (Backend b = p.open(0, BackendConfig.defaults())) {
                System.out.println(p.registryName() + " device 0: " + b.device().name() + " ["
                        + b.device().kind() + ", " + b.device().arch() + "]");
                for (int n : sizes) {
                    double s = time(b, matmul(n), n >= 2048 ? 5 : 10);
                    System.out.printf(
                            Locale.ROOT,
                            "  matmul f32 %dx%dx%d: %.3f ms, %.1f GFLOP/s%n",
                            n,
                            n,
                            n,
                            s * 1e3,
                            2.0 * n * n * n / s / 1e9);
                }
                double s = time(b, elementwiseChain(1 << 20, 16), 20);
                System.out.printf(
                        Locale.ROOT,
                        "  16 chained elementwise ops on 1M floats: %.3f ms per run (%.1f us per op)%n",
                        s * 1e3,
                        s * 1e6 / 16);
                s = time(b, elementwiseChain(1024, 64), 50);
                System.out.printf(
                        Locale.ROOT,
                        "  64 chained elementwise ops on 1024 floats (launch-bound): %.3f ms per run (%.1f us per op)%n",
                        s * 1e3,
                        s * 1e6 / 64);
            }
        }
    }

    private static Graph matmul(int n) {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(n, n)), w = g.input("w", Shape.of(n, n));
        return g.build(g.matmul(x, w));
    }

    private static Graph elementwiseChain(int n, int ops) {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(n));
        Tensor y = x;
        for (int i = 0; i < ops; i++) y = i % 2 == 0 ? g.scale(y, 0.999f, 0.001f) : g.tanh(y);
        return g.build(y);
    }

    /** Median seconds of {@code reps} replays after warm-up runs (at least three and 0.5 s, so the JIT has compiled the CPU kernels). */
    private static double time(Backend b, Graph graph, int reps) {
        SplittableRandom r = new SplittableRandom(42);
        Map<String, HostTensor> in = new LinkedHashMap<>();
        for (Tensor t : graph.inputs()) {
            float[] v = new float[(int) t.elements()];
            for (int i = 0; i < v.length; i++) v[i] = (float) r.nextGaussian();
            in.put(t.name(), HostTensor.ofFloats(t.shape(), v));
        }
        try (GuardedExecution run = new GuardedExecution(b, graph)) {
            run.run(in);
            long warm = System.nanoTime();
            for (int i = 0; i < 3 || System.nanoTime() - warm < 500_000_000L; i++) run.rerun();
            b.synchronize();
            double[] t = new double[reps];
            for (int i = 0; i < reps; i++) {
                long t0 = System.nanoTime();
                run.rerun();
                b.synchronize(); // CUDA returns once queued; Vulkan waits on its fence already
                t[i] = (System.nanoTime() - t0) / 1e9;
            }
            java.util.Arrays.sort(t);
            return t[reps / 2];
        } finally {
            in.values().forEach(HostTensor::close);
        }
    }
}
