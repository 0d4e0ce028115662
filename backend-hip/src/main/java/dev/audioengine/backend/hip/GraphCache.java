package dev.audioengine.backend.hip;

import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Instantiated HIP graphs by owner (a compiled segment), least recently used first out. A
 * captured graph reserves device resources per shape, so the count is bounded (hip.graph_cache);
 * an evicted segment captures again on its next run.
 */
final class GraphCache {
    private final HipApi api;
    private final int capacity;
    private final LinkedHashMap<Object, MemorySegment> graphs = new LinkedHashMap<>(16, 0.75f, true);
    private long captures, evictions;

    GraphCache(HipApi api, int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("hip.graph_cache must be >= 1, got " + capacity);
        this.api = api;
        this.capacity = capacity;
    }

    /** The owner's graph, or null when it has none (never captured, or evicted). */
    synchronized MemorySegment get(Object owner) { return graphs.get(owner); }

    synchronized void put(Object owner, MemorySegment exec) {
        captures++;
        MemorySegment old = graphs.put(owner, exec);
        if (old != null) api.destroyGraphExec(old);
        Iterator<Map.Entry<Object, MemorySegment>> it = graphs.entrySet().iterator();
        while (graphs.size() > capacity && it.hasNext()) {
            Map.Entry<Object, MemorySegment> e = it.next();
            if (e.getKey() == owner) continue;
            api.destroyGraphExec(e.getValue());
            it.remove();
            evictions++;
        }
    }

    synchronized void remove(Object owner) {
        MemorySegment g = graphs.remove(owner);
        if (g != null) api.destroyGraphExec(g);
    }

    synchronized int size() { return graphs.size(); }

    synchronized long captures() { return captures; }

    synchronized long evictions() { return evictions; }

    synchronized void clear() {
        for (MemorySegment g : graphs.values()) api.destroyGraphExec(g);
        graphs.clear();
    }
}
