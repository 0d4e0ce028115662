package dev.audioengine.backend.hip;

import java.util.Map;
import java.util.TreeMap;

/**
 * The bookkeeping of a virtual-memory pool, with no native calls: a reserved address range of
 * {@code capacity} bytes of which the first {@link #mapped()} are backed by physical memory.
 * Allocations are first-fit among free ranges of the mapped part (offsets aligned to
 * {@link #ALIGNMENT}); when none fits, the caller maps more at the end ({@link #grow}) and asks
 * again. Freed ranges merge with their neighbours; physical memory stays mapped until the pool
 * closes, as in the C++ engines' VMM pools. Not thread-safe: the backend serializes its use.
 */
final class VirtualRanges {
    static final long ALIGNMENT = 256;

    private final long capacity;
    private final long granularity;
    private long mapped;
    private final TreeMap<Long, Long> free = new TreeMap<>(); // offset -> size, disjoint and not adjacent
    private final TreeMap<Long, Long> used = new TreeMap<>(); // offset -> size

    VirtualRanges(long capacity, long granularity) {
        if (granularity <= 0 || capacity <= 0 || capacity % granularity != 0) {
            throw new IllegalArgumentException("capacity " + capacity + " must be a positive multiple of the granularity " + granularity);
        }
        this.capacity = capacity;
        this.granularity = granularity;
    }

    static long roundUp(long bytes, long to) { return (bytes + to - 1) / to * to; }

    /** The offset of a free range of {@code bytes} (rounded up to the alignment) now in use, or -1 when the mapped part has none. */
    long allocate(long bytes) {
        long size = roundUp(Math.max(bytes, 1), ALIGNMENT);
        for (Map.Entry<Long, Long> e : free.entrySet()) {
            long offset = e.getKey(), have = e.getValue(); // read before remove: TreeMap may reuse the entry for another node
            if (have < size) continue;
            free.remove(offset);
            if (have > size) free.put(offset + size, have - size);
            used.put(offset, size);
            return offset;
        }
        return -1;
    }

    /**
     * How many bytes must be mapped at the end (a multiple of the granularity) so that {@code bytes}
     * fit, counting a free range that touches the end; -1 when the reservation cannot hold them.
     */
    long growthFor(long bytes) {
        long size = roundUp(Math.max(bytes, 1), ALIGNMENT);
        Map.Entry<Long, Long> last = free.lastEntry();
        long tailFree = last != null && last.getKey() + last.getValue() == mapped ? last.getValue() : 0;
        long grow = roundUp(size - tailFree, granularity);
        return mapped + grow > capacity ? -1 : grow;
    }

    /** Records that {@code bytes} more (a multiple of the granularity) are now mapped at the end; returns their offset. */
    long grow(long bytes) {
        if (bytes <= 0 || bytes % granularity != 0 || mapped + bytes > capacity) {
            throw new IllegalArgumentException("cannot grow by " + bytes + " bytes: " + mapped + " of " + capacity + " mapped, granularity " + granularity);
        }
        long offset = mapped;
        mapped += bytes;
        release(offset, bytes);
        return offset;
    }

    /** Returns an allocation's range to the free list. */
    void free(long offset) {
        Long size = used.remove(offset);
        if (size == null) throw new IllegalArgumentException("offset " + offset + " is not an allocation of this pool");
        release(offset, size);
    }

    private void release(long offset, long size) {
        Map.Entry<Long, Long> before = free.floorEntry(offset);
        if (before != null && before.getKey() + before.getValue() == offset) {
            offset = before.getKey();
            size += before.getValue();
            free.remove(offset);
        }
        Long after = free.get(offset + size);
        if (after != null) {
            free.remove(offset + size);
            size += after;
        }
        free.put(offset, size);
    }

    long mapped() { return mapped; }

    long capacity() { return capacity; }

    long usedBytes() { return used.values().stream().mapToLong(Long::longValue).sum(); }

    long freeBytes() { return free.values().stream().mapToLong(Long::longValue).sum(); }

    int freeRanges() { return free.size(); }
}
