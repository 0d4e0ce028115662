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
        // the same placements by offset, so each request walks them in order without collecting and sorting
        // its live set (that sort was most of Kokoro's plan time at ~2,000 buffers a graph)
        List<Placement> byOffset = new ArrayList<>();
        long arena = 0;
        for (Request r : order) {
            long size = align(Math.max(r.bytes(), 1));
            long offset = 0;
            for (Placement p : byOffset) {
                if (p.first() > r.last() || r.first() > p.last()) continue; // not alive at the same time
                if (offset + size <= p.offset()) break;
                offset = Math.max(offset, p.offset() + align(p.bytes()));
            }
            Placement placement = new Placement(r.key(), offset, r.bytes(), r.first(), r.last());
            placed.add(placement);
            byOffset.add(insertionPoint(byOffset, offset), placement);
            arena = Math.max(arena, offset + size);
        }
        return new Result(placed, arena);
    }

    /** After every placement at or below {@code offset}: equal offsets keep their placing order, as a stable sort would. */
    private static int insertionPoint(List<Placement> byOffset, long offset) {
        int lo = 0, hi = byOffset.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (byOffset.get(mid).offset() <= offset) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    static long align(long n) {
        return (n + ALIGN - 1) / ALIGN * ALIGN;
    }
}
