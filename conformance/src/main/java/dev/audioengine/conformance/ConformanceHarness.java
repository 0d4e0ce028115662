package dev.audioengine.conformance;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.conformance.CaseResult.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * ggml's test-backend-ops in Java: runs each case on the backend under test through the SPI
 * (guarded buffers, see {@link GuardedExecution}) and compares with a {@link Reference} on the
 * same random inputs. A case passes when the guards are intact, NaN/Inf agree and the NMSE is
 * within the case's bound; it is unsupported when the backend's supportsOp says no.
 */
public final class ConformanceHarness {
    private final Backend backend;
    private final Reference reference;

    /** Neither argument is owned: the caller closes them. */
    public ConformanceHarness(Backend backend, Reference reference) {
        this.backend = backend;
        this.reference = reference;
    }

    public Backend backend() {
        return backend;
    }

    public Reference reference() {
        return reference;
    }

    /** Runs {@code cases} in order with inputs drawn from {@code seed}; {@code progress} sees each result. */
    public ConformanceReport run(List<ConformanceCase> cases, long seed, Consumer<CaseResult> progress) {
        List<CaseResult> results = new ArrayList<>(cases.size());
        for (ConformanceCase c : cases) {
            CaseResult r = run(c, seed);
            results.add(r);
            progress.accept(r);
        }
        return new ConformanceReport(
                backend.registryName(), backend.device().name(), reference.describe(), seed, results);
    }

    /** Whether the backend says it can compute every node of the case. */
    public boolean supports(ConformanceCase c) {
        return c.graph().computeNodes().stream().allMatch(backend::supportsOp);
    }

    public CaseResult run(ConformanceCase c, long seed) {
        for (Tensor n : c.graph().computeNodes()) {
            if (!backend.supportsOp(n)) {
                return new CaseResult(
                        c, Status.UNSUPPORTED, Double.NaN, backend.registryName() + " supportsOp says no for " + n);
            }
        }
        List<Map<String, HostTensor>> runs = new ArrayList<>();
        Map<String, HostTensor> states = Map.of();
        try {
            for (int r = 0; r < c.runs(); r++) runs.add(c.drawInputs(seed, r));
            states = c.drawStates(seed);
            double[][] actual = new double[c.runs()][];
            List<String> problems = new ArrayList<>();
            try (GuardedExecution run = new GuardedExecution(backend, c.graph())) {
                states.forEach(run::setState);
                for (int r = 0; r < c.runs(); r++) {
                    run.run(runs.get(r));
                    for (String g : run.memoryViolations()) problems.add(c.runs() > 1 ? "run " + r + ": " + g : g);
                    actual[r] = run.values(c.node());
                }
            } catch (RuntimeException | AssertionError | LinkageError | StackOverflowError e) {
                // a kernel that throws, asserts or cannot link fails its case; the run goes on
                return new CaseResult(c, Status.FAIL, Double.NaN, backend.registryName() + " threw " + describe(e));
            }
            double[][] expected;
            try {
                expected = c.hasState()
                        ? reference.evaluateRuns(c.reference(), states, runs)
                        : new double[][] {reference.evaluate(c.reference(), runs.getFirst())};
            } catch (Reference.CannotReferenceException e) {
                return new CaseResult(c, Status.UNSUPPORTED, Double.NaN, e.getMessage());
            } catch (RuntimeException e) {
                return new CaseResult(
                        c,
                        Status.FAIL,
                        Double.NaN,
                        "the reference (" + reference.describe() + ") threw " + describe(e));
            }
            // every run's output counts: a state carried wrongly shows up in a later run
            Comparison cmp = Comparison.of(concat(actual), concat(expected));
            if (cmp.mismatch() != null) problems.add(cmp.mismatch());
            if (!(cmp.nmse() <= c.bound().nmse())) {
                problems.add(String.format(
                                "NMSE %.3e exceeds the bound %.1e (%s)",
                                cmp.nmse(), c.bound().nmse(), c.bound().why())
                        + (c.runs() > 1 ? worstRun(actual, expected) : ""));
            }
            return problems.isEmpty()
                    ? new CaseResult(c, Status.PASS, cmp.nmse(), null)
                    : new CaseResult(c, Status.FAIL, cmp.nmse(), String.join("; ", problems));
        } finally {
            runs.forEach(m -> m.values().forEach(HostTensor::close));
            states.values().forEach(HostTensor::close);
        }
    }

    private static double[] concat(double[][] parts) {
        int n = 0;
        for (double[] p : parts) n += p.length;
        double[] out = new double[n];
        int at = 0;
        for (double[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static String worstRun(double[][] actual, double[][] expected) {
        int worst = 0;
        double max = -1;
        for (int r = 0; r < actual.length; r++) {
            double e = Comparison.of(actual[r], expected[r]).nmse();
            if (e > max) {
                max = e;
                worst = r;
            }
        }
        return String.format(" (worst: run %d of %d, NMSE %.3e)", worst, actual.length, max);
    }

    private static String describe(Throwable e) {
        String s = e.getClass().getSimpleName() + ": " + e.getMessage();
        return e.getCause() != null ? s + " (cause: " + e.getCause() + ")" : s;
    }
}
