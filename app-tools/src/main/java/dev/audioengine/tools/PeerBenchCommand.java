package dev.audioengine.tools;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.bench.BenchResult;
import dev.audioengine.bench.BenchSettings;
import dev.audioengine.bench.OpenBlas;
import dev.audioengine.cli.GlobalOptions;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.output.JsonWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The side-by-side benches (gemm, quant, conv): our CPU backend and OpenBLAS in one process,
 * interleaved, medians, ratio = ours / peer. Prints a table (with the machine's load average,
 * since a shared machine skews absolute figures) or, with --json, an array of one object per case.
 */
abstract class PeerBenchCommand implements Callable<Integer> {
    static final int DEFAULT_RUNS = 15;

    @ParentCommand
    BenchCommand parent;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--json",
            description = "Print a JSON array, one object per case: {bench, backend, shape, dtype, threads, "
                    + "ours_gflops, peer, peer_gflops, ratio, runs, ...bench-specific figures}.")
    boolean json;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed runs per side after warm-up (median reported). Default: " + DEFAULT_RUNS
                    + "; the report needs at least 10.")
    int runs = DEFAULT_RUNS;

    @Option(names = "--smoke", description = "Tiny shapes that only prove the command works; the figures mean nothing.")
    boolean smoke;

    @Option(
            names = "--only",
            paramLabel = "TEXT",
            description = "Only the cases whose shape (or dtype) contains TEXT, e.g. 2048, k7, Q4_0.")
    String only;

    /** The bench's name in the table header. */
    abstract String title();

    abstract List<BenchResult> run(BenchSettings settings);

    @Override
    public Integer call() {
        GlobalOptions g = parent.parent.globals();
        if (g.backend() != BackendType.CPU) {
            throw new UsageError("bench " + title() + " compares the CPU backend with OpenBLAS on the CPU; --backend "
                    + g.backend().cliName() + " is not supported here (use 'bench ops' for other backends)");
        }
        if (runs < 1) throw new UsageError("--runs must be >= 1, got " + runs);
        BackendRegistry registry = parent.parent.registry();
        BackendProvider cpu = registry.select(BackendType.CPU, g.device()).provider();
        int all = Runtime.getRuntime().availableProcessors();
        List<Integer> threads = g.threads() != 0 ? List.of(g.threads()) : all == 1 ? List.of(1) : List.of(1, all);
        OpenBlas.Lookup blas = OpenBlas.find();
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        BenchSettings settings = new BenchSettings(
                threads,
                runs,
                smoke,
                only,
                blas,
                n -> cpu.open(g.device(), new BackendConfig(n, g.options())),
                line -> {
                    if (!json) {
                        err.printf("\r%-60s", line);
                        err.flush();
                    }
                });
        String loadBefore = loadAverage();
        List<BenchResult> results = run(settings);
        if (json) {
            out.println(json(results));
        } else {
            err.print("\r" + " ".repeat(60) + "\r");
            err.flush();
            out.print(table(results, blas, loadBefore, loadAverage()));
        }
        out.flush();
        return 0;
    }

    private String table(List<BenchResult> rs, OpenBlas.Lookup blas, String loadBefore, String loadAfter) {
        StringBuilder sb = new StringBuilder();
        sb.append("bench ")
                .append(title())
                .append(
                        ": ours = the CPU backend's compiled graph node (Backend.compile + Executable.run, inputs resident)\n");
        sb.append("peer: ")
                .append(blas.blas()
                        .map(b -> b.library() + " [" + b.config() + "], OPENBLAS_THREAD_TIMEOUT=" + b.threadTimeout()
                                + " (idle workers sleep instead of spinning on the cores our next run needs)")
                        .orElse(blas.why() + "; ours alone"))
                .append('\n');
        sb.append("load average before: ")
                .append(loadBefore)
                .append(", after: ")
                .append(loadAfter)
                .append('\n');
        List<String> extraKeys =
                rs.isEmpty() ? List.of() : List.copyOf(rs.getFirst().extra().keySet());
        sb.append(String.format(
                Locale.ROOT,
                "%-40s %-5s %7s %12s %12s %7s",
                "shape",
                "dtype",
                "threads",
                "ours GFLOP/s",
                "peer GFLOP/s",
                "ratio"));
        for (String k : extraKeys) sb.append(String.format(Locale.ROOT, " %18s", k));
        sb.append('\n');
        for (BenchResult r : rs) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-40s %-5s %7d %12.2f %12s %7s",
                    r.shape(),
                    r.dtype(),
                    r.threads(),
                    r.oursGflops(),
                    fmt(r.peerGflops(), "%.2f"),
                    fmt(r.ratio(), "%.2f")));
            for (String k : extraKeys)
                sb.append(String.format(Locale.ROOT, " %18s", fmt(r.extra().getOrDefault(k, Double.NaN), "%.2f")));
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String fmt(double v, String pattern) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, pattern, v) : "-";
    }

    static String json(List<BenchResult> rs) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < rs.size(); i++) {
            BenchResult r = rs.get(i);
            sb.append(i > 0 ? ",\n" : "\n")
                    .append("{\"bench\":")
                    .append(quote(r.bench()))
                    .append(",\"backend\":")
                    .append(quote(r.backend()))
                    .append(",\"shape\":")
                    .append(quote(r.shape()))
                    .append(",\"dtype\":")
                    .append(quote(r.dtype()))
                    .append(",\"threads\":")
                    .append(r.threads())
                    .append(",\"ours_gflops\":")
                    .append(number(r.oursGflops()))
                    .append(",\"peer\":")
                    .append(quote(r.peer()))
                    .append(",\"peer_gflops\":")
                    .append(number(r.peerGflops()))
                    .append(",\"ratio\":")
                    .append(number(r.ratio()))
                    .append(",\"runs\":")
                    .append(r.runs());
            for (Map.Entry<String, Double> e : r.extra().entrySet())
                sb.append(',').append(quote(e.getKey())).append(':').append(number(e.getValue()));
            sb.append('}');
        }
        return sb.append("\n]").toString();
    }

    private static String quote(String s) {
        return new JsonWriter().value(s).toString();
    }

    private static String number(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
    }

    /** The 1, 5 and 15 minute load averages (Linux), or "unknown". */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
