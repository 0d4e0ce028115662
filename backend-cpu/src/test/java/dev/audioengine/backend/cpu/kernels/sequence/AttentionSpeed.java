package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Not a test: µs per call of attention kernels on Moonshine's shapes (decoder steps over masked
 * caches, the encoder's permuted self-attention), bound directly on native tensors. Kernels named
 * on the command line (classes of this package) run interleaved, round after round, so a noisy
 * machine slows all of them alike. Printed per kernel: the median µs per call over rounds, the
 * fastest round, and the median CPU time of the calling thread (at one thread, time the machine
 * gave to other work does not count). To compare with an older kernel, copy it into this package
 * under another class name. After {@code mvn test-compile -pl backend-cpu}, run from backend-cpu/
 * {@code java --add-modules jdk.incubator.vector -cp
 * target/classes:target/test-classes:../engine-api/target/audioengine-api-0.1.0.jar
 * dev.audioengine.backend.cpu.kernels.AttentionSpeed [KERNELS [THREADS [ROUNDS [CASE]]]]}, e.g.
 * {@code AttentionKernelOld,AttentionKernel 1,2 21 cross} (CASE: only cases whose name contains it).
 */
public final class AttentionSpeed {
    /** visible: keys the mask shows (-1: no mask); permuted: q, k, v viewed from [B, T, H, D]. */
    private record Case(String name, int heads, int tq, int tk, int d, int visible, boolean permuted) {}

    private static final List<Case> CASES = List.of(
            new Case("tiny self  q1 cache128 len40", 8, 1, 128, 36, 40, false),
            new Case("tiny cross q1 cache1280 len300", 8, 1, 1280, 36, 300, false),
            new Case("base self  q1 cache128 len40", 8, 1, 128, 52, 40, false),
            new Case("base cross q1 cache1280 len300", 8, 1, 1280, 52, 300, false),
            new Case("encoder T295 d36 permuted", 8, 295, 295, 36, -1, true),
            new Case("encoder T1250 d36 permuted", 8, 1250, 1250, 36, -1, true));

    public static void main(String[] args) throws Exception {
        String[] kernels = (args.length > 0 ? args[0] : "AttentionKernel").split(",");
        int[] threadCounts = Arrays.stream((args.length > 1 ? args[1] : "1,2").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        String only = args.length > 3 ? args[3] : "";
        Arena arena = Arena.ofAuto();
        for (int threads : threadCounts) {
            try (WorkerPool pool = new WorkerPool(threads)) {
                List<Bound> bound = new ArrayList<>();
                for (Case c : CASES) if (c.name.contains(only)) bound.add(bind(c, kernels, pool, arena));
                // every case warms before any is timed: a process that runs the encoder and then
                // decoder steps compiles the kernel with both in its profile
                for (int pass = 0; pass < 3; pass++) for (Bound b : bound) b.calls = warm(b.work, 0.5);
                for (Bound b : bound) measure(b, kernels, threads, rounds);
            }
        }
    }

    private static final class Bound {
        final Case c;
        final List<Runnable> work = new ArrayList<>();
        final List<CpuTensor> outs = new ArrayList<>();
        int calls;

        Bound(Case c) {
            this.c = c;
        }
    }

    private static Bound bind(Case c, String[] kernels, WorkerPool pool, Arena arena) throws Exception {
        Random random = new Random(1);
        int h = c.heads, d = c.d;
        CpuTensor q = tensor(arena, random, h, c.tq, d, c.permuted),
                k = tensor(arena, random, h, c.tk, d, c.permuted),
                v = tensor(arena, random, h, c.tk, d, c.permuted);
        CpuTensor mask = null;
        GraphBuilder g = new GraphBuilder();
        Tensor mt = null;
        if (c.visible >= 0) {
            MemorySegment m = arena.allocate((long) c.tq * c.tk * 4, 64);
            for (int i = 0; i < c.tq; i++)
                for (int j = 0; j < c.tk; j++)
                    m.setAtIndex(CpuTensor.F32, (long) i * c.tk + j, j < c.visible ? 0f : Float.NEGATIVE_INFINITY);
            mask = new CpuTensor(m, 0, DType.F32, 2, new long[] {1, 1, c.tq, c.tk}, new long[] {0, 0, c.tk, 1});
            mt = g.input("mask", Shape.of(c.tq, c.tk));
        }
        Tensor node = g.attention(
                g.input("q", Shape.of(1, h, c.tq, d)),
                g.input("k", Shape.of(1, h, c.tk, d)),
                g.input("v", Shape.of(1, h, c.tk, d)),
                mt,
                (float) (1 / Math.sqrt(d)),
                false);
        CpuTensor[] in = mask == null ? new CpuTensor[] {q, k, v} : new CpuTensor[] {q, k, v, mask};
        Bound b = new Bound(c);
        for (String name : kernels) {
            CpuKernel kernel = (CpuKernel) Class.forName(AttentionSpeed.class.getPackageName() + "." + name)
                    .getDeclaredConstructor()
                    .newInstance();
            CpuTensor out = tensor(arena, null, h, c.tq, d, false);
            b.outs.add(out);
            b.work.add(kernel.bind(node, out, in, new KernelContext(pool)));
        }
        return b;
    }

    /** Runs every kernel for about {@code seconds}; returns calls per round for ~20 ms of one kernel. */
    private static int warm(List<Runnable> work, double seconds) {
        long t0 = System.nanoTime();
        int n = 0;
        while (System.nanoTime() - t0 < seconds * 1e9) {
            for (Runnable w : work) w.run();
            n++;
        }
        return Math.max(1, (int) (20e6 / ((System.nanoTime() - t0) / (double) n / work.size())));
    }

    private static void measure(Bound b, String[] kernels, int threads, int rounds) throws Exception {
        List<Runnable> work = b.work;
        double[][] us = new double[work.size()][rounds], cpu = new double[work.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < work.size(); i++) {
                long s = System.nanoTime(), cs = threadCpuNanos();
                for (int n = 0; n < b.calls; n++) work.get(i).run();
                cpu[i][r] = (threadCpuNanos() - cs) / 1e3 / b.calls;
                us[i][r] = (System.nanoTime() - s) / 1e3 / b.calls;
            }
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-32s threads %d", b.c.name, threads));
        float[] first = b.outs.get(0).toFloatArray();
        for (int i = 0; i < work.size(); i++) {
            Arrays.sort(us[i]);
            Arrays.sort(cpu[i]);
            double diff = 0;
            float[] got = b.outs.get(i).toFloatArray();
            for (int e = 0; e < got.length; e++) diff = Math.max(diff, Math.abs(got[e] - first[e]));
            line.append(String.format(
                    Locale.ROOT,
                    " | %s %9.2f (min %9.2f, cpu %9.2f) maxdiff %.0e",
                    kernels[i].replace("AttentionKernel", "AK"),
                    us[i][rounds / 2],
                    us[i][0],
                    cpu[i][rounds / 2],
                    diff));
        }
        System.out.println(line);
    }

    private static final Object THREADS;
    private static final Method CPU_TIME;

    static { // reflectively: the module under test does not read java.management, the class path run does
        try {
            THREADS = Class.forName("java.lang.management.ManagementFactory")
                    .getMethod("getThreadMXBean")
                    .invoke(null);
            CPU_TIME = Class.forName("java.lang.management.ThreadMXBean").getMethod("getCurrentThreadCpuTime");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static long threadCpuNanos() throws ReflectiveOperationException {
        return (long) CPU_TIME.invoke(THREADS);
    }

    /** [1, h, t, d] F32, contiguous or a permuted view of [1, t, h, d]; random when random != null. */
    private static CpuTensor tensor(Arena arena, Random random, int h, int t, int d, boolean permuted) {
        long n = (long) h * t * d;
        MemorySegment s = arena.allocate(n * 4, 64);
        if (random != null) for (long i = 0; i < n; i++) s.setAtIndex(CpuTensor.F32, i, (float) random.nextGaussian());
        long[] strides = permuted ? new long[] {n, d, (long) h * d, 1} : new long[] {n, (long) t * d, d, 1};
        return new CpuTensor(s, 0, DType.F32, 4, new long[] {1, h, t, d}, strides);
    }
}
