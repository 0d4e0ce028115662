package dev.audioengine.gpu.runtime;

import java.util.ArrayList;
import java.util.List;

/** A GpuVirtualMemory with no device: records reservations and mappings, fails mappings beyond a physical limit. */
public final class FakeVirtualMemory implements GpuVirtualMemory {
    public static final long BASE = 0x7f00_0000_0000L;
    public final long granularity;
    public final long physical;
    public long mappedNow;
    public long reserved;
    public final List<String> calls = new ArrayList<>();

    public FakeVirtualMemory(long granularity, long physical) {
        this.granularity = granularity;
        this.physical = physical;
    }

    @Override
    public long granularity() {
        return granularity;
    }

    @Override
    public long reserve(long bytes) {
        if (bytes % granularity != 0)
            throw new AssertionError("reserve of " + bytes + " is not a multiple of the granularity");
        reserved = bytes;
        calls.add("reserve " + bytes);
        return BASE;
    }

    @Override
    public boolean map(long address, long bytes) {
        if (bytes % granularity != 0 || (address - BASE) % granularity != 0)
            throw new AssertionError("unaligned map " + address + " " + bytes);
        if (address < BASE || address + bytes > BASE + reserved)
            throw new AssertionError("map outside the reservation");
        if (mappedNow + bytes > physical) {
            calls.add("map failed " + (address - BASE) + "+" + bytes);
            return false;
        }
        mappedNow += bytes;
        calls.add("map " + (address - BASE) + "+" + bytes);
        return true;
    }

    @Override
    public void unmap(long address, long bytes) {
        mappedNow -= bytes;
        calls.add("unmap " + (address - BASE) + "+" + bytes);
    }

    @Override
    public void unreserve(long address, long bytes) {
        calls.add("unreserve " + bytes);
        reserved = 0;
    }
}
