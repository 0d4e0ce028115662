package dev.audioengine.bench;

import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.GuardedExecution;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Times one case on one backend, ggml's perf mode in spirit: inputs uploaded once, warm-up runs
 * (at least {@link #MIN_WARMUP}) for at least {@link #WARMUP_SECONDS} and until the JIT has compiled nothing for
 * {@link #JIT_QUIET_SECONDS} (at most {@link #MAX_WARMUP_SECONDS}), then at least
 * {@link #MIN_RUNS} timed runs (more for fast ops, up to about {@link #TARGET_SECONDS}), and the
 * median. Only the op itself is timed, not transfers.
 * <p>
 * Vector API code runs orders of magnitude slower until C2 compiles it, and C2 compiles a kernel
 * called a few times per run only after several runs, so a fixed warm-up measured the slow tiers
 * on a loaded machine (docs/PERFORMANCE-cpu.md, "Figures that were in code comments"). Waiting
 * for the JIT to go quiet measures the compiled kernel on any machine.
 */
public final class OpBenchmark {
    static final int MIN_WARMUP = 30;
    static final int MAX_WARMUP = 500;
    static final double WARMUP_SECONDS = 0.3;
    static final double JIT_QUIET_SECONDS = 0.3;
    static final double MAX_WARMUP_SECONDS = 10;
    static final int MIN_RUNS = 5;
    static final int MAX_RUNS = 100;
    static final double TARGET_SECONDS = 0.3;

    /**
     * @param medianSeconds the median run time, NaN when not run
     * @param rate          throughput in the cost's unit, NaN when not run
     * @param note          why it was not run or what went wrong, else null
     */
    public record Result(
            ConformanceCase testCase, OpCost cost, int runs, double medianSeconds, double rate, String note) {}

    private OpBenchmark() {}

    /** Reruns until the JIT has spent no compile time for {@link #JIT_QUIET_SECONDS} (where the JVM reports it), or {@link #MAX_WARMUP_SECONDS} since {@code start}. */
    private static void waitForTheJit(GuardedExecution exec, Backend backend, long start) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) return;
        long compiled = jit.getTotalCompilationTime(), quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < JIT_QUIET_SECONDS * 1e9
                && System.nanoTime() - start < MAX_WARMUP_SECONDS * 1e9) {
            exec.rerun();
            backend.synchronize();
            long now = jit.getTotalCompilationTime();
            if (now != compiled) {
                compiled = now;
                quietSince = System.nanoTime();
            }
        }
    }

    public static Result run(Backend backend, ConformanceCase c, long seed) {
        OpCost cost = OpCost.of(c.node());
        if (!c.graph().computeNodes().stream().allMatch(backend::supportsOp)) {
            return new Result(c, cost, 0, Double.NaN, Double.NaN, "unsupported");
        }
        Map<String, HostTensor> inputs = c.drawInputs(seed);
        try (GuardedExecution exec = new GuardedExecution(backend, c.graph())) {
            long warm = System.nanoTime();
            exec.run(inputs);
            for (int i = 1; i < MAX_WARMUP && (i < MIN_WARMUP || System.nanoTime() - warm < WARMUP_SECONDS * 1e9); i++)
                exec.rerun();
            backend.synchronize();
            waitForTheJit(exec, backend, warm);
            long t0 = System.nanoTime();
            exec.rerun();
            backend.synchronize(); // GPU runs return once queued
            double first = (System.nanoTime() - t0) / 1e9;
            int runs = (int) Math.max(MIN_RUNS, Math.min(MAX_RUNS, TARGET_SECONDS / Math.max(first, 1e-9)));
            double[] times = new double[runs];
            for (int i = 0; i < runs; i++) {
                long s = System.nanoTime();
                exec.rerun();
                backend.synchronize();
                times[i] = (System.nanoTime() - s) / 1e9;
            }
            Arrays.sort(times);
            double median = runs % 2 == 1 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
            List<String> guards = exec.memoryViolations();
            return new Result(
                    c,
                    cost,
                    runs,
                    median,
                    cost.rate(median),
                    guards.isEmpty() ? null : "guard violation: " + guards.getFirst());
        } catch (RuntimeException e) {
            return new Result(c, cost, 0, Double.NaN, Double.NaN, "failed: " + e.getMessage());
        } finally {
            inputs.values().forEach(HostTensor::close);
        }
    }
}
