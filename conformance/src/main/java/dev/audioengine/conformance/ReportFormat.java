package dev.audioengine.conformance;

import dev.audioengine.conformance.CaseResult.Status;
import java.util.List;
import java.util.Locale;

/** Renders conformance reports as JSON, CSV, or a table for people. */
public final class ReportFormat {
    private ReportFormat() {}

    /**
     * {@code {backend, device, reference, seed, cases, passed, failed, unsupported, results: [{op, dtype,
     * shape, status, nmse, bound, message?}]}}; nmse is null when nothing was compared.
     */
    public static String json(ConformanceReport r) {
        StringBuilder sb = new StringBuilder(256 + 160 * r.results().size());
        sb.append("{\"backend\":")
                .append(str(r.backend()))
                .append(",\"device\":")
                .append(str(r.device()))
                .append(",\"reference\":")
                .append(str(r.reference()))
                .append(",\"seed\":")
                .append(r.seed())
                .append(",\"cases\":")
                .append(r.results().size())
                .append(",\"passed\":")
                .append(r.passed())
                .append(",\"failed\":")
                .append(r.failed())
                .append(",\"unsupported\":")
                .append(r.unsupported())
                .append(",\"results\":[");
        for (int i = 0; i < r.results().size(); i++) {
            CaseResult c = r.results().get(i);
            if (i > 0) sb.append(',');
            sb.append("\n{\"op\":")
                    .append(str(c.op()))
                    .append(",\"dtype\":")
                    .append(str(c.dtype()))
                    .append(",\"shape\":")
                    .append(str(c.shape()))
                    .append(",\"status\":")
                    .append(str(status(c.status())))
                    .append(",\"nmse\":")
                    .append(num(c.nmse()))
                    .append(",\"bound\":")
                    .append(num(c.bound()));
            if (c.message() != null) sb.append(",\"message\":").append(str(c.message()));
            sb.append('}');
        }
        return sb.append("]}").toString();
    }

    /** Several reports (for {@code --backend all}) as a JSON array. */
    public static String json(List<ConformanceReport> reports) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < reports.size(); i++) sb.append(i > 0 ? ",\n" : "").append(json(reports.get(i)));
        return sb.append(']').toString();
    }

    public static String csvHeader() {
        return "backend,op,dtype,shape,status,nmse,bound,message";
    }

    /** One CSV row per case (no header). */
    public static String csvRows(ConformanceReport r) {
        StringBuilder sb = new StringBuilder();
        for (CaseResult c : r.results()) {
            sb.append(csv(r.backend()))
                    .append(',')
                    .append(csv(c.op()))
                    .append(',')
                    .append(csv(c.dtype()))
                    .append(',')
                    .append(csv(c.shape()))
                    .append(',')
                    .append(status(c.status()))
                    .append(',')
                    .append(Double.isNaN(c.nmse()) ? "" : String.format(Locale.ROOT, "%.3e", c.nmse()))
                    .append(',')
                    .append(String.format(Locale.ROOT, "%.1e", c.bound()))
                    .append(',')
                    .append(c.message() == null ? "" : csv(c.message()))
                    .append('\n');
        }
        return sb.toString();
    }

    /** One line per case, as printed while the run goes. */
    public static String line(CaseResult c) {
        String nmse = Double.isNaN(c.nmse()) ? "-" : String.format(Locale.ROOT, "%.2e", c.nmse());
        String head = String.format(
                Locale.ROOT,
                "  %-18s %-6s %-44s %-11s nmse %-9s bound %.0e",
                c.op(),
                c.dtype(),
                c.shape(),
                status(c.status()).toUpperCase(Locale.ROOT),
                nmse,
                c.bound());
        return c.status() == Status.PASS ? head : head + "\n      " + c.message();
    }

    /** The closing summary of one backend's run. */
    public static String summary(ConformanceReport r, double seconds) {
        return String.format(
                Locale.ROOT,
                "%s (%s) vs %s, seed %d: %d cases, %d passed, %d failed, %d unsupported in %.1f s%s",
                r.backend(),
                r.device(),
                r.reference(),
                r.seed(),
                r.results().size(),
                r.passed(),
                r.failed(),
                r.unsupported(),
                seconds,
                r.failed() > 0 ? "  (replay with --seed " + r.seed() + ")" : "");
    }

    static String status(Status s) {
        return s.name().toLowerCase(Locale.ROOT);
    }

    private static String num(double v) {
        if (Double.isNaN(v)) return "null";
        if (Double.isInfinite(v)) return v > 0 ? "1e308" : "-1e308";
        return String.format(Locale.ROOT, "%.6e", v);
    }

    static String str(String s) {
        if (s == null) return "null";
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) sb.append(String.format("\\u%04x", (int) ch));
                    else sb.append(ch);
                }
            }
        }
        return sb.append('"').toString();
    }

    private static String csv(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
