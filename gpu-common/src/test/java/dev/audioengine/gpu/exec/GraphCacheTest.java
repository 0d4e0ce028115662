package dev.audioengine.gpu.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The captured-graph cache's bound and least-recently-used eviction, with a fake destroy. */
class GraphCacheTest {
    private final List<Long> destroyed = new ArrayList<>();

    private GraphCache cache(int capacity) {
        return new GraphCache(g -> destroyed.add(g.address()), capacity, "cuda.graph_cache");
    }

    @Test
    void evictsTheLeastRecentlyUsedGraphBeyondCapacity() {
        GraphCache c = cache(2);
        Object a = new Object(), b = new Object(), d = new Object();
        c.put(a, MemorySegment.ofAddress(1));
        c.put(b, MemorySegment.ofAddress(2));
        assertThat(c.get(a)).isNotNull(); // a is now more recent than b
        c.put(d, MemorySegment.ofAddress(3));
        assertThat(destroyed).containsExactly(2L);
        assertThat(c.get(b)).isNull();
        assertThat(c.get(a).address()).isEqualTo(1);
        assertThat(c.size()).isEqualTo(2);
        assertThat(c.evictions()).isEqualTo(1);
    }

    @Test
    void replacingAndRemovingDestroyTheOldGraphAndClearDestroysAll() {
        GraphCache c = cache(4);
        Object a = new Object(), b = new Object();
        c.put(a, MemorySegment.ofAddress(1));
        c.put(a, MemorySegment.ofAddress(5));
        assertThat(destroyed).containsExactly(1L);
        c.put(b, MemorySegment.ofAddress(6));
        c.remove(a);
        assertThat(destroyed).containsExactly(1L, 5L);
        c.clear();
        assertThat(destroyed).containsExactly(1L, 5L, 6L);
        assertThat(c.size()).isZero();
    }

    @Test
    void capacityMustBePositive() {
        assertThatThrownBy(() -> cache(0)).hasMessageContaining("cuda.graph_cache must be >= 1");
    }
}
