package dev.audioengine.api.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Packs buffers with known lifetimes into one arena: greedy by size, each buffer placed at the
 * lowest offset that does not overlap a buffer alive at the same time (the TFLite/ggml-alloc
 * idea). Lifetimes are inclusive step ranges.
 */
final class MemoryPlanner {
    static final long ALIGN = 256;

    record Request(int key, long bytes, int first, int last) {}

    record Placement(int key, long offset, long bytes, int first, int last) {}

    record Result(List<Placement> placements, long arenaBytes) {}

    private MemoryPlanner() {}

    static Result plan(List<Request> requests) {
        List<Request> order = new ArrayList<>(requests);
        order.sort(Comparator.comparingLong(Request::bytes).reversed().thenComparingInt(Request::key));
        List<Placement> placed = new ArrayList<>();
        long arena = 0;
        for (Request r : order) {
            long size = align(Math.max(r.bytes(), 1));
            List<Placement> live = new ArrayList<>();
            for (Placement p : placed) if (p.first() <= r.last() && r.first() <= p.last()) live.add(p);
            live.sort(Comparator.comparingLong(Placement::offset));
            long offset = 0;
            for (Placement p : live) {
                if (offset + size <= p.offset()) break;
                offset = Math.max(offset, p.offset() + align(p.bytes()));
            }
            placed.add(new Placement(r.key(), offset, r.bytes(), r.first(), r.last()));
            arena = Math.max(arena, offset + size);
        }
        return new Result(placed, arena);
    }

    static long align(long n) { return (n + ALIGN - 1) / ALIGN * ALIGN; }
}
