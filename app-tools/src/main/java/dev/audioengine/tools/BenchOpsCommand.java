package dev.audioengine.tools;

import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.bench.BenchCases;
import dev.audioengine.bench.OpBenchmark;
import dev.audioengine.cli.GlobalOptions;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.model.output.JsonWriter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Per-op throughput on one model-sized shape per op and dtype, GFLOP/s for compute-bound ops and
 * GB/s for the rest, for each chosen backend (--backend all: every available one, side by side),
 * so a slow kernel on any backend shows at a glance.
 */
@Command(
        name = "ops",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Per-op throughput: each op on one model-sized shape per dtype, median of several runs after warm-up (at least 0.3 s, so the JIT has compiled the kernels) "
                    + "(inputs uploaded once; only the op is timed). GFLOP/s for matmul, conv, attention, lstm and FFTs "
                    + "(5 N log2 N per transform), GB/s (bytes read + written) for the rest.",
            "--backend all puts every available backend side by side.",
            ""
        })
final class BenchOpsCommand implements Callable<Integer> {

    @ParentCommand
    private BenchCommand parent;

    @Spec
    private CommandSpec spec;

    @Option(names = "--op", paramLabel = "NAME", description = "Only this op.")
    private String op;

    @Option(
            names = "--json",
            description =
                    "Print [{backend, device, results:[{op, dtype, shape, unit, value, median_ms, runs, note}]}].")
    private boolean json;

    private record Column(String backend, String device, List<OpBenchmark.Result> results) {}

    @Override
    public Integer call() {
        GlobalOptions g = parent.parent.globals();
        BackendRegistry registry = parent.parent.registry();
        List<ConformanceCase> cases = BenchCases.select(op);
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        List<Column> cols = new ArrayList<>();
        for (BackendProvider p : CheckTargets.providers(g, registry)) {
            try (Backend backend = p.open(CheckTargets.device(g), CheckTargets.config(g))) {
                List<OpBenchmark.Result> results = new ArrayList<>();
                for (ConformanceCase c : cases) {
                    OpBenchmark.Result r = OpBenchmark.run(backend, c, 1);
                    results.add(r);
                    if (!json) {
                        err.printf(Locale.ROOT, "\r%-8s %-18s %-6s", p.type().cliName(), c.op(), c.dtype());
                        err.flush();
                    }
                }
                cols.add(new Column(backend.registryName(), backend.device().name(), results));
            }
        }
        if (!json) {
            err.print("\r" + " ".repeat(40) + "\r");
            err.flush();
        }
        out.print(json ? json(cols) + "\n" : table(cols, cases));
        out.flush();
        return 0;
    }

    private static String table(List<Column> cols, List<ConformanceCase> cases) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-18s %-6s %-38s", "op", "dtype", "shape"));
        for (Column c : cols) sb.append(String.format(Locale.ROOT, " %22s", c.backend() + " (median ms)"));
        sb.append('\n');
        for (int i = 0; i < cases.size(); i++) {
            ConformanceCase k = cases.get(i);
            sb.append(String.format(Locale.ROOT, "%-18s %-6s %-38s", k.op(), k.dtype(), k.shape()));
            for (Column c : cols)
                sb.append(String.format(Locale.ROOT, " %22s", cell(c.results().get(i))));
            sb.append('\n');
        }
        for (Column c : cols) {
            for (OpBenchmark.Result r : c.results()) {
                if (r.note() != null && !r.note().equals("unsupported"))
                    sb.append(c.backend())
                            .append(' ')
                            .append(r.testCase().id())
                            .append(": ")
                            .append(r.note())
                            .append('\n');
            }
        }
        sb.append("devices:");
        for (Column c : cols)
            sb.append(' ').append(c.backend()).append(" = ").append(c.device()).append(';');
        return sb.append('\n').toString();
    }

    private static String cell(OpBenchmark.Result r) {
        if (Double.isNaN(r.rate())) return r.note() != null && r.note().equals("unsupported") ? "unsupported" : "error";
        return String.format(Locale.ROOT, "%.2f %s (%.2f)", r.rate(), r.cost().unit(), r.medianSeconds() * 1e3);
    }

    private static String json(List<Column> cols) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < cols.size(); i++) {
            Column c = cols.get(i);
            sb.append(i > 0 ? ",\n" : "")
                    .append("{\"backend\":")
                    .append(quote(c.backend()))
                    .append(",\"device\":")
                    .append(quote(c.device()))
                    .append(",\"results\":[");
            for (int j = 0; j < c.results().size(); j++) {
                OpBenchmark.Result r = c.results().get(j);
                sb.append(j > 0 ? ",\n" : "\n")
                        .append("{\"op\":")
                        .append(quote(r.testCase().op()))
                        .append(",\"dtype\":")
                        .append(quote(r.testCase().dtype()))
                        .append(",\"shape\":")
                        .append(quote(r.testCase().shape()))
                        .append(",\"unit\":")
                        .append(quote(r.cost().unit()))
                        .append(",\"value\":")
                        .append(number(r.rate()))
                        .append(",\"median_ms\":")
                        .append(number(r.medianSeconds() * 1e3))
                        .append(",\"runs\":")
                        .append(r.runs())
                        .append(",\"note\":")
                        .append(quote(r.note()))
                        .append('}');
            }
            sb.append("]}");
        }
        return sb.append(']').toString();
    }

    private static String quote(String s) {
        return new JsonWriter().value(s).toString();
    }

    private static String number(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
    }
}
