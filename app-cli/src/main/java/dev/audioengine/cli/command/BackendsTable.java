package dev.audioengine.cli.command;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.DeviceInfo;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The human-readable listing: one row per backend (name, registry name, availability, device
 * count, reason), then its devices and capabilities on indented lines. The selected backend,
 * if any, is marked '*'; a requested backend that could not be served is marked '!'.
 */
final class BackendsTable {
    private static final String[] HEADER = {"NAME", "REGISTRY", "AVAILABLE", "DEVICES", "REASON"};

    private BackendsTable() {}

    static String render(List<BackendEntry> entries, BackendProvider selected, BackendType refused) {
        int[] width = new int[HEADER.length - 1];
        for (int i = 0; i < width.length; i++) width[i] = HEADER[i].length();
        for (BackendEntry e : entries) {
            String[] cells = cells(e);
            for (int i = 0; i < width.length; i++) width[i] = Math.max(width[i], cells[i].length());
        }
        StringBuilder sb = new StringBuilder();
        row(sb, "  ", HEADER, width);
        if (entries.isEmpty()) sb.append("  (no backends found: is the lib folder on the module path?)\n");
        for (BackendEntry e : entries) {
            String mark = e.provider() == selected ? "* " : e.type() == refused ? "! " : "  ";
            row(sb, mark, cells(e), width);
            String indent = "      ";
            for (DeviceInfo d : e.probe().devices())
                sb.append(indent).append(device(d)).append('\n');
            sb.append(indent)
                    .append("capabilities: ")
                    .append(capabilities(e.capabilities()))
                    .append('\n');
        }
        return sb.toString();
    }

    private static String[] cells(BackendEntry e) {
        String reason = e.probe().reason();
        return new String[] {
            e.cliName(),
            e.registryName(),
            e.probe().available() ? "yes" : "no",
            Integer.toString(e.probe().devices().size()),
            reason == null ? "-" : reason
        };
    }

    private static void row(StringBuilder sb, String mark, String[] cells, int[] width) {
        sb.append(mark);
        for (int i = 0; i < width.length; i++) sb.append(String.format(Locale.ROOT, "%-" + width[i] + "s  ", cells[i]));
        sb.append(cells[cells.length - 1]).append('\n');
    }

    static String device(DeviceInfo d) {
        return "[" + d.index() + "] " + d.name() + ", " + d.arch() + ", "
                + d.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ", memory " + bytes(d.memoryTotal())
                + " total, " + bytes(d.memoryFree()) + " free";
    }

    private static String capabilities(List<Capability> caps) {
        return caps.isEmpty()
                ? "none verified"
                : caps.stream().map(Capability::name).collect(Collectors.joining(", "));
    }

    /** Binary units with one decimal; negative or zero sizes (unknown) print as "?". */
    static String bytes(long n) {
        if (n <= 0) return "?";
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? n + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
