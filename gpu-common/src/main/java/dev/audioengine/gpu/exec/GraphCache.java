package dev.audioengine.gpu.exec;

import dev.audioengine.api.spi.InvalidOptionValueException;
import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Instantiated device graphs by owner (a compiled segment), least recently used first out. A
 * captured graph reserves device resources per shape, so the count is bounded (P.graph_cache);
 * an evicted segment captures again on its next run.
 */
public final class GraphCache {
    private final Consumer<MemorySegment> destroy;
    private final int capacity;
    private final LinkedHashMap<Object, MemorySegment> graphs = new LinkedHashMap<>(16, 0.75f, true);
    private long captures, evictions;

    /** {@code destroy} frees an instantiated graph (cuGraphExecDestroy, hipGraphExecDestroy); {@code option} names the capacity's option. */
    public GraphCache(Consumer<MemorySegment> destroy, int capacity, String option) {
        if (capacity < 1) throw new InvalidOptionValueException(option + " must be >= 1, got " + capacity);
        this.destroy = destroy;
        this.capacity = capacity;
    }

    /** The owner's graph, or null when it has none (never captured, or evicted). */
    public synchronized MemorySegment get(Object owner) {
        return graphs.get(owner);
    }

    public synchronized void put(Object owner, MemorySegment exec) {
        captures++;
        MemorySegment old = graphs.put(owner, exec);
        if (old != null) destroy.accept(old);
        Iterator<Map.Entry<Object, MemorySegment>> it = graphs.entrySet().iterator();
        while (graphs.size() > capacity && it.hasNext()) {
            Map.Entry<Object, MemorySegment> e = it.next();
            if (e.getKey() == owner) continue;
            destroy.accept(e.getValue());
            it.remove();
            evictions++;
        }
    }

    public synchronized void remove(Object owner) {
        MemorySegment g = graphs.remove(owner);
        if (g != null) destroy.accept(g);
    }

    public synchronized int size() {
        return graphs.size();
    }

    public synchronized long captures() {
        return captures;
    }

    public synchronized long evictions() {
        return evictions;
    }

    public synchronized void clear() {
        for (MemorySegment g : graphs.values()) destroy.accept(g);
        graphs.clear();
    }
}
