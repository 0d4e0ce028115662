package dev.audioengine.gpu.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Device memory from one reserved virtual address range, backed by physical chunks mapped as the
 * pool grows (ggml's VMM pool, with frees in any order): first fit over the free blocks, freed
 * neighbours merge, and when nothing fits the mapped end grows by at least {@link #MIN_GROWTH}.
 * Addresses never move, so a captured graph's pointers stay valid. All work runs on the backend's
 * one stream, so a block freed here may be handed to the next allocation at once: its new owner's
 * work is enqueued after the old owner's. Used under the backend's lock.
 */
public final class VmmPool implements AutoCloseable {
    /** Every block starts on this boundary (the alignment cuMemAlloc gives). */
    static final long ALIGN = 256;
    /** Growth step: fewer, larger mappings. */
    static final long MIN_GROWTH = 32L << 20;

    private final GpuVirtualMemory vm;
    private final long granularity;
    private final long base;
    private final long reserved;
    private long mapped;
    private final List<long[]> chunks = new ArrayList<>(); // {address, bytes}, in address order
    private final TreeMap<Long, Long> free = new TreeMap<>(); // start -> bytes, inside the mapped part
    private final Map<Long, Long> used = new HashMap<>(); // start -> bytes

    /** Reserves {@code reserveBytes} (rounded up to the granularity) of address space; maps nothing yet. */
    public VmmPool(GpuVirtualMemory vm, long reserveBytes) {
        this.vm = vm;
        this.granularity = vm.granularity();
        if (granularity <= 0) throw new IllegalStateException("the allocation granularity is " + granularity);
        this.reserved = roundUp(Math.max(reserveBytes, granularity), granularity);
        this.base = vm.reserve(reserved);
    }

    private static long roundUp(long n, long to) {
        return (n + to - 1) / to * to;
    }

    /** A block of at least {@code bytes}; 0 when the reservation is full or the device is out of memory. */
    public long alloc(long bytes) {
        long size = roundUp(Math.max(bytes, 1), ALIGN);
        for (Map.Entry<Long, Long> e : free.entrySet()) {
            if (e.getValue() >= size) return take(e.getKey(), e.getValue(), size);
        }
        Map.Entry<Long, Long> last = free.lastEntry();
        boolean tailIsFree = last != null && last.getKey() + last.getValue() == base + mapped;
        long need = size - (tailIsFree ? last.getValue() : 0);
        long grow = roundUp(Math.max(need, MIN_GROWTH), granularity);
        if (mapped + grow > reserved || !vm.map(base + mapped, grow)) {
            grow = roundUp(need, granularity); // the full step does not fit: try just what is needed
            if (mapped + grow > reserved || !vm.map(base + mapped, grow)) return 0;
        }
        chunks.add(new long[] {base + mapped, grow});
        release(base + mapped, grow);
        mapped += grow;
        Map.Entry<Long, Long> tail = free.lastEntry();
        return take(tail.getKey(), tail.getValue(), size);
    }

    private long take(long start, long blockBytes, long size) {
        free.remove(start);
        if (blockBytes > size) free.put(start + size, blockBytes - size);
        used.put(start, size);
        return start;
    }

    /** Returns a block {@link #alloc} gave; throws for any other address. */
    public void free(long address) {
        Long size = used.remove(address);
        if (size == null)
            throw new IllegalArgumentException("0x" + Long.toHexString(address) + " is not a block of this pool");
        release(address, size);
    }

    /** Adds a free range, merged with free neighbours. */
    private void release(long start, long bytes) {
        Map.Entry<Long, Long> before = free.floorEntry(start);
        if (before != null && before.getKey() + before.getValue() == start) {
            start = before.getKey();
            bytes += before.getValue();
            free.remove(start);
        }
        Long after = free.remove(start + bytes);
        if (after != null) bytes += after;
        free.put(start, bytes);
    }

    /** Unmaps the trailing chunks nothing uses, handing their memory back; returns the bytes unmapped. */
    public long trim() {
        long unmapped = 0;
        while (!chunks.isEmpty()) {
            long[] c = chunks.getLast();
            Map.Entry<Long, Long> tail = free.lastEntry();
            if (tail == null || tail.getKey() > c[0] || tail.getKey() + tail.getValue() != c[0] + c[1]) break;
            vm.unmap(c[0], c[1]);
            chunks.removeLast();
            mapped -= c[1];
            unmapped += c[1];
            free.remove(tail.getKey());
            if (tail.getKey() < c[0]) free.put(tail.getKey(), c[0] - tail.getKey());
        }
        return unmapped;
    }

    public long mappedBytes() {
        return mapped;
    }

    public long usedBytes() {
        return used.values().stream().mapToLong(Long::longValue).sum();
    }

    public long reservedBytes() {
        return reserved;
    }

    public long base() {
        return base;
    }

    /** Unmaps everything and hands the address range back; blocks still in use are gone with it. */
    @Override
    public void close() {
        for (int i = chunks.size() - 1; i >= 0; i--) vm.unmap(chunks.get(i)[0], chunks.get(i)[1]);
        chunks.clear();
        free.clear();
        used.clear();
        mapped = 0;
        vm.unreserve(base, reserved);
    }
}
