package dev.audioengine.gpu.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Device time per step label ({@code P.profile=on}): each step is timed apart, from an idle stream
 * to its completion, so a figure includes its launch but never another step's work. Graphs are off
 * while profiling, so totals are those of launch-by-launch execution: for finding where time goes,
 * not for end-to-end speed.
 */
public final class StepProfile {
    private record Tally(long calls, long nanos) {}

    private final Map<String, Tally> tallies = new LinkedHashMap<>();

    public void add(String label, long nanos) {
        tallies.merge(label, new Tally(1, nanos), (a, b) -> new Tally(a.calls + b.calls, a.nanos + b.nanos));
    }

    public boolean isEmpty() {
        return tallies.isEmpty();
    }

    /** One line per label, the most time first, with its share of the total. */
    public String report(String device) {
        List<Map.Entry<String, Tally>> rows = new ArrayList<>(tallies.entrySet());
        rows.sort((a, b) -> Long.compare(b.getValue().nanos, a.getValue().nanos));
        long total = rows.stream().mapToLong(e -> e.getValue().nanos).sum();
        StringBuilder s = new StringBuilder(String.format(
                Locale.ROOT,
                "%s profile: %.3f ms in %d steps%n",
                device,
                total / 1e6,
                rows.stream().mapToLong(e -> e.getValue().calls).sum()));
        s.append(String.format(Locale.ROOT, "%8s %7s %9s %10s  %s%n", "ms", "share", "calls", "us/call", "op kernel"));
        for (Map.Entry<String, Tally> e : rows) {
            Tally t = e.getValue();
            s.append(String.format(
                    Locale.ROOT,
                    "%8.3f %6.1f%% %9d %10.1f  %s%n",
                    t.nanos / 1e6,
                    100.0 * t.nanos / Math.max(1, total),
                    t.calls,
                    t.nanos / 1e3 / t.calls,
                    e.getKey()));
        }
        return s.toString();
    }
}
