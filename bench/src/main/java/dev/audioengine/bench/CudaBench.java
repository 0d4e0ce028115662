package dev.audioengine.bench;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cuda.CudaBackendProvider;
import dev.audioengine.gpu.GpuBackend;
import dev.audioengine.gpu.GpuBenchHooks;
import dev.audioengine.gpu.compile.KernelSources;
import dev.audioengine.gpu.gemm.GpuBlas;
import dev.audioengine.gpu.runtime.GpuBuffer;
import dev.audioengine.gpu.runtime.GpuRuntime;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CUDA backend's own benchmark, timed with CUDA events on the backend's stream:
 * {@code gemm} (cuBLASLt at 8192^3 for BF16, F16, F32 and TF32), {@code ops} (elementwise kernels
 * on 256M F32 elements against the device-to-device copy bandwidth of the same run), {@code launch}
 * (per-op overhead of a 100-op graph from Java, with and without CUDA graph replay) and
 * {@code leak} (1000 open/compile/run/close cycles; device free memory before and after) and
 * {@code attention} (the fused attention op at a speech-encoder shape, F32 and F16 k/v) and {@code conv}
 * (conv1d 512 -> 512 channels, kernel 7, 16000 steps; conv_transpose1d 512 -> 256, kernel 16, stride 8).
 * Prints one JSON object per measurement; {@code --out FILE} also writes them there.
 * Usage: CudaBench [gemm] [ops] [launch] [leak] [--out FILE]
 */
public final class CudaBench {
    private final PrintStream out;
    private final List<String> lines = new ArrayList<>();

    private CudaBench(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        List<String> what = new ArrayList<>();
        Path file = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--out")) file = Path.of(args[++i]);
            else what.add(args[i]);
        }
        if (what.isEmpty()) what = List.of("gemm", "ops", "launch", "leak", "attention", "conv");
        CudaBench bench = new CudaBench(System.out);
        CudaBackendProvider provider = new CudaBackendProvider();
        try (GpuBackend backend = (GpuBackend) provider.open(0, BackendConfig.defaults())) {
            bench.emit(
                    "device",
                    "{\"name\":\"%s\",\"arch\":\"%s\",\"memory_total\":%d}",
                    backend.device().name(),
                    backend.device().arch(),
                    backend.device().memoryTotal());
            // load every kernel module once: shipped prebuilt, from NVRTC, or from the disk cache when an earlier
            // process compiled them
            long loadStart = System.nanoTime();
            for (String source : KernelSources.SOURCES)
                GpuBenchHooks.kernels(backend).function(source, "ae_" + firstKernel(source));
            bench.emit(
                    "kernel_cache",
                    "{\"modules\":%d,\"prebuilt\":%d,\"compiled\":%d,\"from_disk\":%d,\"seconds\":%.3f}",
                    KernelSources.SOURCES.size(),
                    GpuBenchHooks.kernels(backend).prebuiltCount(),
                    GpuBenchHooks.kernels(backend).compiledCount(),
                    GpuBenchHooks.kernels(backend).loadedFromDiskCount(),
                    (System.nanoTime() - loadStart) / 1e9);
            for (String w : what) {
                switch (w) {
                    case "gemm" -> bench.gemm(backend);
                    case "ops" -> bench.ops(backend);
                    case "launch" -> bench.launch(provider);
                    case "leak" -> bench.leak(provider, backend);
                    case "attention" -> bench.attention(backend);
                    case "conv" -> bench.conv(backend);
                    case "transfer" -> bench.transfer(provider);
                    default ->
                        throw new IllegalArgumentException(
                                "unknown benchmark '" + w + "'; valid: gemm ops launch leak attention conv transfer");
                }
            }
        }
        if (file != null) Files.write(file, bench.lines);
    }

    /** The name (without ae_) of the first kernel a source defines. */
    private static String firstKernel(String source) {
        String text = KernelSources.text(source + ".cu");
        int at = text.indexOf("GC_KERNEL void ae_") + "GC_KERNEL void ae_".length();
        return text.substring(at, text.indexOf('(', at));
    }

    private void emit(String kind, String fmt, Object... args) {
        String line = "{\"bench\":\"" + kind + "\","
                + String.format(Locale.ROOT, fmt, args).substring(1);
        lines.add(line);
        out.println(line);
        out.flush();
    }

    /** Milliseconds per repetition of {@code body} on the backend's stream, after warm-up. */
    private static double time(GpuBackend b, int warmup, int reps, Runnable body) {
        GpuRuntime api = GpuBenchHooks.runtime(b);
        for (int i = 0; i < warmup; i++) body.run();
        MemorySegment start = api.createEvent(), end = api.createEvent();
        try {
            api.record(start, GpuBenchHooks.stream(b));
            for (int i = 0; i < reps; i++) body.run();
            api.record(end, GpuBenchHooks.stream(b));
            return api.elapsedMillis(start, end) / reps;
        } finally {
            api.destroyEvent(start);
            api.destroyEvent(end);
        }
    }

    private static void fill(GpuBackend b, long ptr, DType t, long n, int seed) {
        GpuBenchHooks.fillUniform(b, ptr, t, n, seed);
    }

    private void gemm(GpuBackend b) {
        long n = 8192;
        record Case(String name, DType type, boolean tf32, int bytes) {}
        List<Case> cases = List.of(
                new Case("bf16", DType.BF16, false, 2),
                new Case("f16", DType.F16, false, 2),
                new Case("tf32", DType.F32, true, 4),
                new Case("f32", DType.F32, false, 4));
        for (Case c : cases) {
            try (GpuBuffer a = GpuBenchHooks.allocateScratch(b, n * n * c.bytes());
                    GpuBuffer x = GpuBenchHooks.allocateScratch(b, n * n * c.bytes());
                    GpuBuffer d = GpuBenchHooks.allocateScratch(b, n * n * c.bytes())) {
                fill(b, a.address(), c.type(), n * n, 1);
                fill(b, x.address(), c.type(), n * n, 2);
                // row-major y[m, n] = x[m, k] . w[n, k]^T, as the engine's matmul: column-major D = A^T B
                GpuBlas.Shape s = new GpuBlas.Shape(
                        c.type(), c.type(), c.tf32(), true, false, n, n, n, n, n, n, 1, 0, 0, 0, 256, 256, 256);
                GpuBlas.Plan p = GpuBenchHooks.blas(b).plan(s);
                if (p == null) {
                    emit("gemm", "{\"dtype\":\"%s\",\"error\":\"no cuBLASLt algorithm\"}", c.name());
                    continue;
                }
                int reps = c.name().equals("f32") ? 5 : 20;
                GpuBlas blas = GpuBenchHooks.blas(b);
                MemorySegment stream = GpuBenchHooks.stream(b);
                double ms = time(b, 3, reps, () -> blas.run(p, a.address(), x.address(), d.address(), stream, false));
                emit(
                        "gemm",
                        "{\"dtype\":\"%s\",\"m\":%d,\"n\":%d,\"k\":%d,\"ms\":%.4f,\"tflops\":%.1f}",
                        c.name(),
                        n,
                        n,
                        n,
                        ms,
                        2.0 * n * n * n / (ms * 1e-3) / 1e12);
            }
        }
    }

    /** Compiles {@code g} on {@code b} with one buffer per storage root; returns the executable and keeps the buffers in {@code held}. */
    private static Executable compile(Backend b, Graph g, Map<Tensor, DeviceBuffer> held) {
        for (Tensor t : g.nodes()) held.computeIfAbsent(t.storage(), r -> b.allocate(r.storageBytes()));
        TensorPlacement p = new TensorPlacement() {
            @Override
            public DeviceBuffer buffer(Tensor t) {
                return held.get(t.storage());
            }

            @Override
            public long byteOffset(Tensor t) {
                return t.dtype().bytesFor(t.offset());
            }
        };
        return b.compile(g.computeNodes(), p);
    }

    private void ops(GpuBackend b) {
        long n = 256L << 20;
        try (GpuBuffer x = GpuBenchHooks.allocateScratch(b, 4 * n);
                GpuBuffer y = GpuBenchHooks.allocateScratch(b, 4 * n)) {
            fill(b, x.address(), DType.F32, n, 3);
            GpuRuntime api = GpuBenchHooks.runtime(b);
            MemorySegment stream = GpuBenchHooks.stream(b);
            double copyMs = time(b, 3, 20, () -> api.copyDtoDAsync(y.address(), x.address(), 4 * n, stream));
            double copyGbs = 2.0 * 4 * n / (copyMs * 1e-3) / 1e9;
            emit(
                    "ops",
                    "{\"op\":\"copy_d2d\",\"elements\":%d,\"ms\":%.4f,\"gbs\":%.1f,\"of_copy\":1.0}",
                    n,
                    copyMs,
                    copyGbs);
        }
        record Case(String name, int inputs) {}
        for (Case c : List.of(
                new Case("relu", 1),
                new Case("silu", 1),
                new Case("gelu_erf", 1),
                new Case("exp", 1),
                new Case("scale", 1),
                new Case("add", 2),
                new Case("mul", 2))) {
            GraphBuilder g = new GraphBuilder();
            Tensor a = g.input("a", DType.F32, Shape.of(n));
            Tensor out = switch (c.name()) {
                case "relu" -> g.relu(a);
                case "silu" -> g.silu(a);
                case "gelu_erf" -> g.gelu(a);
                case "exp" -> g.exp(a);
                case "scale" -> g.scale(a, 0.5f, 1f);
                case "add" -> g.add(a, g.input("b", DType.F32, Shape.of(n)));
                default -> g.mul(a, g.input("b", DType.F32, Shape.of(n)));
            };
            Map<Tensor, DeviceBuffer> held = new IdentityHashMap<>();
            try (Executable e = compile(b, g.build(out), held)) {
                for (Map.Entry<Tensor, DeviceBuffer> h : held.entrySet()) {
                    if (h.getKey().op() instanceof Op.Input)
                        fill(b, GpuBenchHooks.buffer(h.getValue()).address(), DType.F32, n, 7);
                }
                double ms = time(b, 3, 20, e::run);
                double bytes = 4.0 * n * (c.inputs() + 1);
                emit(
                        "ops",
                        "{\"op\":\"%s\",\"elements\":%d,\"ms\":%.4f,\"gbs\":%.1f}",
                        c.name(),
                        n,
                        ms,
                        bytes / (ms * 1e-3) / 1e9);
            } finally {
                held.values().forEach(DeviceBuffer::close);
            }
        }
    }

    private void conv(GpuBackend b) {
        for (boolean transposed : new boolean[] {false, true}) {
            GraphBuilder g = new GraphBuilder();
            Tensor x = g.input("x", DType.F32, transposed ? Shape.of(1, 512, 2000) : Shape.of(1, 512, 16000));
            Tensor w = g.input("w", DType.F32, transposed ? Shape.of(512, 256, 16) : Shape.of(512, 512, 7));
            Tensor bias = g.input("bias", DType.F32, Shape.of(transposed ? 256 : 512));
            Tensor y = transposed ? g.convTranspose1d(x, w, bias, 8, 4, 0, 1, 1) : g.conv1d(x, w, bias, 1, 3, 1, 1);
            Map<Tensor, DeviceBuffer> held = new IdentityHashMap<>();
            try (Executable e = compile(b, g.build(y), held)) {
                for (Map.Entry<Tensor, DeviceBuffer> h : held.entrySet()) {
                    if (h.getKey().op() instanceof Op.Input)
                        fill(
                                b,
                                GpuBenchHooks.buffer(h.getValue()).address(),
                                DType.F32,
                                h.getKey().elements(),
                                5);
                }
                double ms = time(b, 3, 20, e::run);
                double flops = transposed ? 2.0 * 512 * 256 * 16 * 2000 : 2.0 * 512 * 512 * 7 * 16000;
                emit(
                        "conv",
                        "{\"op\":\"%s\",\"out\":\"%s\",\"ms\":%.4f,\"tflops\":%.2f}",
                        transposed ? "conv_transpose1d" : "conv1d",
                        y.shape(),
                        ms,
                        flops / (ms * 1e-3) / 1e12);
            } finally {
                held.values().forEach(DeviceBuffer::close);
            }
        }
    }

    private void attention(GpuBackend b) {
        long batch = 1, heads = 8, t = 1500, d = 64;
        for (DType kv : List.of(DType.F32, DType.F16)) {
            GraphBuilder g = new GraphBuilder();
            Tensor q = g.input("q", DType.F32, Shape.of(batch, heads, t, d));
            Tensor k = g.input("k", kv, Shape.of(batch, heads, t, d)),
                    v = g.input("v", kv, Shape.of(batch, heads, t, d));
            Tensor y = g.attention(q, k, v, null, (float) (1 / Math.sqrt(d)), false);
            Map<Tensor, DeviceBuffer> held = new IdentityHashMap<>();
            try (Executable e = compile(b, g.build(y), held)) {
                for (Map.Entry<Tensor, DeviceBuffer> h : held.entrySet()) {
                    if (h.getKey().op() instanceof Op.Input) {
                        fill(
                                b,
                                GpuBenchHooks.buffer(h.getValue()).address(),
                                h.getKey().dtype(),
                                h.getKey().elements(),
                                11);
                    }
                }
                double ms = time(b, 3, 20, e::run);
                double flops = 4.0 * batch * heads * t * t * d;
                emit(
                        "attention",
                        "{\"kv\":\"%s\",\"b\":%d,\"h\":%d,\"t\":%d,\"d\":%d,\"ms\":%.4f,\"tflops\":%.2f}",
                        kv.name().toLowerCase(Locale.ROOT),
                        batch,
                        heads,
                        t,
                        d,
                        ms,
                        flops / (ms * 1e-3) / 1e12);
            } finally {
                held.values().forEach(DeviceBuffer::close);
            }
        }
    }

    private void launch(CudaBackendProvider provider) {
        int ops = 100, runs = 2000;
        for (String graphs : List.of("off", "on")) {
            try (GpuBackend b = (GpuBackend) provider.open(0, new BackendConfig(0, Map.of("cuda.graphs", graphs)))) {
                GraphBuilder g = new GraphBuilder();
                Tensor t = g.input("x", DType.F32, Shape.of(1024));
                for (int i = 0; i < ops; i++) t = g.scale(t, 1.0001f, 0f);
                Map<Tensor, DeviceBuffer> held = new IdentityHashMap<>();
                try (Executable e = compile(b, g.build(t), held)) {
                    for (int i = 0; i < 50; i++) e.run();
                    b.synchronize();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < runs; i++) e.run();
                    b.synchronize();
                    double usPerOp = (System.nanoTime() - t0) / 1e3 / runs / ops;
                    emit(
                            "launch",
                            "{\"graphs\":\"%s\",\"ops_per_run\":%d,\"runs\":%d,\"us_per_op\":%.3f,\"captures\":%d}",
                            graphs,
                            ops,
                            runs,
                            usPerOp,
                            GpuBenchHooks.graphCaptures(b));
                } finally {
                    held.values().forEach(DeviceBuffer::close);
                }
            }
        }
    }

    /** Host-device copies of 256 MiB from ordinary native memory: pinned double-buffered staging vs the driver's pageable path. */
    private void transfer(CudaBackendProvider provider) {
        long bytes = 256L << 20;
        try (java.lang.foreign.Arena host = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment src = host.allocate(bytes, 64), dst = host.allocate(bytes, 64);
            for (long i = 0; i < bytes; i += 8)
                src.set(java.lang.foreign.ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            for (String pinned : List.of("off", "on", "off", "on")) {
                try (GpuBackend b = (GpuBackend) provider.open(0, new BackendConfig(0, Map.of("cuda.pinned", pinned)));
                        DeviceBuffer buf = b.allocate(bytes)) {
                    b.upload(buf, 0, src);
                    b.download(buf, 0, dst);
                    double[] up = new double[5], down = new double[5];
                    for (int r = 0; r < 5; r++) {
                        long t0 = System.nanoTime();
                        b.upload(buf, 0, src);
                        long t1 = System.nanoTime();
                        b.download(buf, 0, dst);
                        long t2 = System.nanoTime();
                        up[r] = bytes / ((t1 - t0) / 1e9) / 1e9;
                        down[r] = bytes / ((t2 - t1) / 1e9) / 1e9;
                    }
                    java.util.Arrays.sort(up);
                    java.util.Arrays.sort(down);
                    boolean same = dst.mismatch(src) == -1;
                    emit(
                            "transfer",
                            "{\"pinned\":\"%s\",\"bytes\":%d,\"upload_gbps\":%.1f,\"download_gbps\":%.1f,\"round_trip_exact\":%b}",
                            pinned,
                            bytes,
                            up[2],
                            down[2],
                            same);
                }
            }
        }
    }

    private void leak(CudaBackendProvider provider, GpuBackend holder) {
        int cycles = 1000;
        holder.synchronize();
        long before = GpuBenchHooks.runtime(holder).memInfo()[0];
        long t0 = System.nanoTime();
        for (int i = 0; i < cycles; i++) {
            try (Backend b = provider.open(0, BackendConfig.defaults())) {
                GraphBuilder g = new GraphBuilder();
                Tensor x = g.input("x", DType.F32, Shape.of(64, 64));
                Tensor y = g.softmax(g.matmul(g.silu(x), x));
                Map<Tensor, DeviceBuffer> held = new IdentityHashMap<>();
                try (Executable e = compile(b, g.build(y), held)) {
                    try (HostTensor h = HostTensor.allocate(DType.F32, Shape.of(64, 64))) {
                        b.upload(held.get(x), 0, h.data());
                        e.run();
                        b.download(held.get(y), 0, h.data());
                    }
                } finally {
                    held.values().forEach(DeviceBuffer::close);
                }
            }
        }
        holder.synchronize();
        long after = GpuBenchHooks.runtime(holder).memInfo()[0];
        emit(
                "leak",
                "{\"cycles\":%d,\"free_before\":%d,\"free_after\":%d,\"delta_bytes\":%d,\"seconds\":%.1f}",
                cycles,
                before,
                after,
                before - after,
                (System.nanoTime() - t0) / 1e9);
    }
}
