package dev.audioengine.tools;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.cli.CliContext;
import dev.audioengine.cli.ErrorReporter;
import dev.audioengine.cli.GlobalOptions;
import dev.audioengine.conformance.CapabilityEvidence;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.CaseResult;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.conformance.Reference;
import dev.audioengine.conformance.ReportFormat;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The conformance suite from the command line: every op on the chosen backend(s) against a
 * reference on fresh random inputs (the CPU against float64, every other backend against the
 * CPU), with guard regions, NaN/Inf agreement and per-case NMSE bounds. Exits 1 on any failure.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Run the op conformance suite: each case runs on the backend under test through the SPI (guard regions "
                    + "around every tensor) and is compared with the float64 reference (for the CPU) or the CPU backend "
                    + "(for any other backend) on the same random inputs. A case passes when its normalized mean squared "
                    + "error is within its bound, NaN/Inf agree and no guard byte changed; it is unsupported when the "
                    + "backend's supportsOp says no.",
            "--backend all runs every available backend. Exit status 1 when any case fails.",
            ""
        })
final class CheckCommand implements Callable<Integer> {

    @ParentCommand
    private CliContext parent;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--op",
            paramLabel = "NAME",
            description = "Only cases of this op (e.g. matmul, conv1d, add, gelu_erf).")
    private String op;

    @Option(
            names = "--dtype",
            paramLabel = "NAME",
            description = "Only cases of this dtype (f32, f16, bf16, q8_0, q4_0, i32).")
    private String dtype;

    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "Seed for the random inputs (default: a fresh one, printed, so a run can be replayed).")
    private Long seed;

    @Option(
            names = "--support",
            description = "Print the op x backend support matrix (supportsOp only; runs nothing heavy).")
    private boolean support;

    @ArgGroup(exclusive = true)
    private Format format = new Format();

    static final class Format {
        @Option(
                names = "--json",
                description =
                        "Print {backend, device, reference, seed, cases, passed, failed, unsupported, "
                                + "results:[{op, dtype, shape, status, nmse, bound, message}]} (an array of them with --backend all).")
        boolean json;

        @Option(
                names = "--csv",
                description = "Print one CSV row per case: backend,op,dtype,shape,status,nmse,bound,message.")
        boolean csv;
    }

    @Override
    public Integer call() {
        GlobalOptions g = parent.globals();
        BackendRegistry registry = parent.registry();
        PrintWriter out = spec.commandLine().getOut();
        if (support) {
            List<BackendProvider> providers =
                    g.backendGiven() && !g.allBackends() ? CheckTargets.providers(g, registry) : registry.providers();
            List<SupportMatrix.Column> cols =
                    SupportMatrix.build(providers, registry, CheckTargets.device(g), CheckTargets.config(g));
            out.print(
                    format.json
                            ? SupportMatrix.json(cols) + "\n"
                            : format.csv ? SupportMatrix.csv(cols) : SupportMatrix.table(cols));
            out.flush();
            return 0;
        }
        List<ConformanceCase> cases =
                op == null && dtype == null ? CaseCatalogue.all() : CaseCatalogue.select(op, dtype);
        long runSeed = seed != null ? seed : new SecureRandom().nextLong();
        List<ConformanceReport> reports = new ArrayList<>();
        boolean human = !format.json && !format.csv;
        if (format.csv) out.println(ReportFormat.csvHeader());
        List<String> unopened = new ArrayList<>();
        for (BackendProvider p : CheckTargets.providers(g, registry)) {
            Backend opened;
            try {
                opened = p.open(CheckTargets.device(g), CheckTargets.config(g));
            } catch (RuntimeException e) {
                if (!g.allBackends()) throw e;
                // with --backend all, one backend that probes available but cannot open must not hide the others
                unopened.add(p.type().cliName() + " probed available but could not be opened: " + e.getMessage());
                spec.commandLine().getErr().println("error: " + unopened.getLast());
                continue;
            }
            try (Backend backend = opened;
                    Reference reference = CheckTargets.referenceFor(p, g, registry)) {
                if (human) {
                    out.printf(
                            Locale.ROOT,
                            "check %s device %d (%s) against the %s: %d cases, seed %d%n",
                            p.type().cliName(),
                            backend.device().index(),
                            backend.device().name(),
                            reference.describe(),
                            cases.size(),
                            runSeed);
                    out.flush();
                }
                long t0 = System.nanoTime();
                ConformanceReport report = new ConformanceHarness(backend, reference).run(cases, runSeed, r -> {
                    if (human) {
                        out.println(ReportFormat.line(r));
                        out.flush();
                    }
                });
                double seconds = (System.nanoTime() - t0) / 1e9;
                reports.add(report);
                if (format.csv) out.print(ReportFormat.csvRows(report));
                if (human) {
                    out.println();
                    out.print(perOp(report));
                    out.print(capabilities(
                            backend.verifiedCapabilities(),
                            report,
                            cases.size() == CaseCatalogue.all().size()));
                    out.println(ReportFormat.summary(report, seconds));
                    out.println();
                } else {
                    spec.commandLine().getErr().println(ReportFormat.summary(report, seconds));
                }
            }
        }
        if (format.json)
            out.println(
                    reports.size() == 1 && !g.allBackends()
                            ? ReportFormat.json(reports.getFirst())
                            : ReportFormat.json(reports));
        out.flush();
        spec.commandLine().getErr().flush();
        return reports.stream().anyMatch(r -> r.failed() > 0) || !unopened.isEmpty() ? ErrorReporter.EXIT_FAILURE : 0;
    }

    /** pass / fail / unsupported counts per op. */
    private static String perOp(ConformanceReport report) {
        Map<String, int[]> byOp = new LinkedHashMap<>();
        for (CaseResult r : report.results())
            byOp.computeIfAbsent(r.op(), k -> new int[3])[r.status().ordinal()]++;
        StringBuilder sb = new StringBuilder(
                String.format(Locale.ROOT, "%-18s %6s %6s %12s%n", "op", "pass", "fail", "unsupported"));
        byOp.forEach(
                (name, n) -> sb.append(String.format(Locale.ROOT, "%-18s %6d %6d %12d%n", name, n[0], n[1], n[2])));
        return sb.append('\n').toString();
    }

    /** Each declared capability with the state of its evidence in this run. */
    private static String capabilities(Set<Capability> declared, ConformanceReport report, boolean fullRun) {
        StringBuilder sb = new StringBuilder();
        for (Capability c : EnumSet.allOf(Capability.class)) {
            if (!declared.contains(c)) continue;
            List<ConformanceCase> evidence = CapabilityEvidence.cases(c);
            long ran = report.results().stream()
                    .filter(r -> evidence.contains(r.testCase()))
                    .count();
            if (ran == 0 && !fullRun) continue;
            List<String> problems = CapabilityEvidence.unbacked(Set.of(c), report);
            sb.append(String.format(
                    Locale.ROOT,
                    "capability %-24s %s%n",
                    c,
                    problems.isEmpty()
                            ? "verified: " + evidence.size() + " evidence cases pass"
                            : "NOT backed: " + problems.size() + " of " + Math.max(1, evidence.size())
                                    + " evidence cases do not pass"));
        }
        return sb.isEmpty() ? "" : sb.append('\n').toString();
    }
}
