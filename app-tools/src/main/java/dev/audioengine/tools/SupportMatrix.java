package dev.audioengine.tools;

import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.model.output.JsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The op × backend table of {@code check --support}: for each op, how many of its conformance
 * cases the backend's supportsOp accepts ("yes", "no", or "k/n" when only some shapes or dtypes
 * are). Asks supportsOp only: opens each available backend's device and runs nothing.
 */
final class SupportMatrix {
    private SupportMatrix() {}

    /** One column: a backend and, per op, {supported, total}; {@code unavailable} is the reason when it could not be opened. */
    record Column(String name, String unavailable, Map<String, int[]> counts) {}

    static List<Column> build(
            List<BackendProvider> providers, BackendRegistry registry, int device, BackendConfig config) {
        List<Column> cols = new ArrayList<>();
        for (BackendProvider p : providers) {
            String name = p.type().cliName();
            ProbeResult r = registry.probe(p);
            if (!r.available() || r.devices().size() <= device) {
                cols.add(new Column(name, r.available() ? "no device " + device : r.reason(), Map.of()));
                continue;
            }
            try (Backend b = p.open(device, config)) {
                Map<String, int[]> counts = new LinkedHashMap<>();
                for (ConformanceCase c : CaseCatalogue.all()) {
                    int[] n = counts.computeIfAbsent(c.op(), k -> new int[2]);
                    if (c.graph().computeNodes().stream().allMatch(b::supportsOp)) n[0]++;
                    n[1]++;
                }
                cols.add(new Column(name, null, counts));
            } catch (RuntimeException e) {
                cols.add(new Column(name, "could not open device " + device + ": " + e.getMessage(), Map.of()));
            }
        }
        return cols;
    }

    static String table(List<Column> cols) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-18s", "op"));
        for (Column c : cols) sb.append(String.format(Locale.ROOT, " %-11s", c.name()));
        sb.append('\n');
        for (String op : CaseCatalogue.opNames()) {
            sb.append(String.format(Locale.ROOT, "%-18s", op));
            for (Column c : cols) sb.append(String.format(Locale.ROOT, " %-11s", cell(c, op)));
            sb.append('\n');
        }
        for (Column c : cols) {
            if (c.unavailable() != null)
                sb.append('\n').append(c.name()).append(": unavailable: ").append(c.unavailable());
        }
        return sb.append(cols.stream().anyMatch(c -> c.unavailable() != null) ? "\n" : "")
                .append(
                        "\nyes = every case of the op is supported, k/n = k of its n cases (some dtypes or shapes), no = none.\n")
                .toString();
    }

    static String json(List<Column> cols) {
        JsonWriter w = new JsonWriter().beginArray();
        for (Column c : cols) {
            w.beginObject().name("backend").value(c.name()).name("available").value(c.unavailable() == null);
            if (c.unavailable() != null) {
                w.name("reason").value(c.unavailable());
            } else {
                w.name("ops").beginObject();
                c.counts()
                        .forEach((op, n) -> w.name(op)
                                .beginObject()
                                .name("supported")
                                .value(n[0])
                                .name("cases")
                                .value(n[1])
                                .endObject());
                w.endObject();
            }
            w.endObject();
        }
        return w.endArray().toString();
    }

    /** One row per backend and op: backend,op,supported,cases; an unavailable backend gets one row with its reason. */
    static String csv(List<Column> cols) {
        StringBuilder sb = new StringBuilder("backend,op,supported,cases,unavailable\n");
        for (Column c : cols) {
            if (c.unavailable() != null) {
                sb.append(c.name())
                        .append(",,,,")
                        .append(csvField(c.unavailable()))
                        .append('\n');
                continue;
            }
            c.counts()
                    .forEach((op, n) -> sb.append(c.name())
                            .append(',')
                            .append(op)
                            .append(',')
                            .append(n[0])
                            .append(',')
                            .append(n[1])
                            .append(",\n"));
        }
        return sb.toString();
    }

    private static String csvField(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String cell(Column c, String op) {
        if (c.unavailable() != null) return "unavailable";
        int[] n = c.counts().get(op);
        return n[0] == n[1] ? "yes" : n[0] == 0 ? "no" : n[0] + "/" + n[1];
    }
}
