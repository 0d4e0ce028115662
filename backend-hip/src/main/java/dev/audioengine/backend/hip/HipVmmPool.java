package dev.audioengine.backend.hip;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Device memory through HIP's virtual memory management ({@code hip.vmm=on}): one address range as
 * large as the device's memory is reserved at open, physical memory is created and mapped at its end
 * in granularity-sized steps as allocations need it, and freed ranges are reused (first fit, merged
 * with their neighbours; see {@link VirtualRanges}). Nothing is unmapped before {@link #close()}, so
 * the pool's footprint is its high-water mark, as with the C++ engines' VMM pools.
 */
final class HipVmmPool implements AutoCloseable {
    // hipMemAllocationType, hipMemAllocationHandleType, hipMemLocationType, hipMemAccessFlags, hipMemAllocationGranularity_flags
    static final int TYPE_PINNED = 1, HANDLE_TYPE_NONE = 0, LOCATION_DEVICE = 1, PROT_READ_WRITE = 3, GRANULARITY_RECOMMENDED = 1;

    /** hipMemLocation { hipMemLocationType type; int id; }. */
    static final StructLayout LOCATION = MemoryLayout.structLayout(JAVA_INT.withName("type"), JAVA_INT.withName("id"));
    /** hipMemAllocationProp: type, requestedHandleType, location, win32HandleMetaData, allocFlags {u8, u8, u16}. */
    static final StructLayout ALLOCATION_PROP = MemoryLayout.structLayout(
            JAVA_INT.withName("type"), JAVA_INT.withName("requestedHandleType"), LOCATION.withName("location"),
            ADDRESS.withName("win32HandleMetaData"),
            MemoryLayout.structLayout(JAVA_BYTE.withName("compressionType"), JAVA_BYTE.withName("gpuDirectRDMACapable"),
                    JAVA_SHORT.withName("usage")).withName("allocFlags"),
            MemoryLayout.paddingLayout(4));
    /** hipMemAccessDesc { hipMemLocation location; hipMemAccessFlags flags; }. */
    static final StructLayout ACCESS_DESC = MemoryLayout.structLayout(LOCATION.withName("location"), JAVA_INT.withName("flags"));

    /** Every entry point bound, for the test that binds them against the installed runtime. */
    static final String[] ENTRY_POINTS = {"hipMemGetAllocationGranularity", "hipMemAddressReserve", "hipMemAddressFree",
            "hipMemCreate", "hipMemRelease", "hipMemMap", "hipMemUnmap", "hipMemSetAccess"};

    private final HipRuntime runtime;
    private final MethodHandle granularity, reserve, addressFree, create, release, map, unmap, setAccess;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment prop, access;
    private final long base;
    private final VirtualRanges ranges;
    private final List<long[]> chunks = new ArrayList<>(); // {offset, bytes, handle}

    HipVmmPool(HipRuntime runtime, SymbolLookup lib, String name, int device, long deviceBytes) {
        this.runtime = runtime;
        granularity = bind(lib, name, "hipMemGetAllocationGranularity", ADDRESS, ADDRESS, JAVA_INT);
        reserve = bind(lib, name, "hipMemAddressReserve", ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        addressFree = bind(lib, name, "hipMemAddressFree", JAVA_LONG, JAVA_LONG);
        create = bind(lib, name, "hipMemCreate", ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG);
        release = bind(lib, name, "hipMemRelease", JAVA_LONG);
        map = bind(lib, name, "hipMemMap", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        unmap = bind(lib, name, "hipMemUnmap", JAVA_LONG, JAVA_LONG);
        setAccess = bind(lib, name, "hipMemSetAccess", JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG);
        prop = arena.allocate(ALLOCATION_PROP);
        prop.set(JAVA_INT, ALLOCATION_PROP.byteOffset(groupElement("type")), TYPE_PINNED);
        prop.set(JAVA_INT, ALLOCATION_PROP.byteOffset(groupElement("requestedHandleType")), HANDLE_TYPE_NONE);
        prop.set(JAVA_INT, ALLOCATION_PROP.byteOffset(groupElement("location"), groupElement("type")), LOCATION_DEVICE);
        prop.set(JAVA_INT, ALLOCATION_PROP.byteOffset(groupElement("location"), groupElement("id")), device);
        access = arena.allocate(ACCESS_DESC);
        access.set(JAVA_INT, ACCESS_DESC.byteOffset(groupElement("location"), groupElement("type")), LOCATION_DEVICE);
        access.set(JAVA_INT, ACCESS_DESC.byteOffset(groupElement("location"), groupElement("id")), device);
        access.set(JAVA_INT, ACCESS_DESC.byteOffset(groupElement("flags")), PROT_READ_WRITE);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(JAVA_LONG);
            runtime.check((int) granularity.invokeExact(g, prop, GRANULARITY_RECOMMENDED), "hipMemGetAllocationGranularity");
            long gran = g.get(JAVA_LONG, 0);
            long capacity = VirtualRanges.roundUp(deviceBytes, gran);
            MemorySegment p = a.allocate(ADDRESS);
            runtime.check((int) reserve.invokeExact(p, capacity, gran, 0L, 0L), "hipMemAddressReserve(" + capacity + " bytes)");
            base = p.get(JAVA_LONG, 0);
            ranges = new VirtualRanges(capacity, gran);
        } catch (Throwable t) {
            arena.close();
            throw HipRuntime.rethrow(t);
        }
    }

    private static MethodHandle bind(SymbolLookup lib, String libraryName, String name, MemoryLayout... args) {
        MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalStateException(libraryName + " does not export " + name
                + "; hip.vmm=on needs ROCm 5.2 or later"));
        return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, args));
    }

    /** A device address for {@code bytes}, mapping more physical memory when needed; -1 when the device has no more. */
    long allocate(long bytes) {
        long offset = ranges.allocate(bytes);
        if (offset < 0) {
            long grow = ranges.growthFor(bytes);
            if (grow < 0 || !mapMore(grow)) return -1;
            offset = ranges.allocate(bytes);
        }
        return base + offset;
    }

    /** Creates {@code bytes} of physical memory and maps it read-write at the end of the mapped part; false when out of memory. */
    private boolean mapMore(long bytes) {
        long at = ranges.mapped();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = a.allocate(JAVA_LONG);
            int r = (int) create.invokeExact(h, bytes, prop, 0L);
            if (r == HipApi.HIP_ERROR_OUT_OF_MEMORY) return false;
            runtime.check(r, "hipMemCreate(" + bytes + " bytes)");
            long handle = h.get(JAVA_LONG, 0);
            try {
                runtime.check((int) map.invokeExact(base + at, bytes, 0L, handle, 0L), "hipMemMap");
                runtime.check((int) setAccess.invokeExact(base + at, bytes, access, 1L), "hipMemSetAccess");
            } catch (RuntimeException e) {
                runtime.check((int) release.invokeExact(handle), "hipMemRelease");
                throw e;
            }
            chunks.add(new long[] {at, bytes, handle});
            ranges.grow(bytes);
            return true;
        } catch (Throwable t) {
            throw HipRuntime.rethrow(t);
        }
    }

    /** Returns an allocation to the pool; the caller has made sure no enqueued work still reads it. */
    void free(long address) { ranges.free(address - base); }

    long mappedBytes() { return ranges.mapped(); }

    @Override
    public void close() {
        try {
            for (long[] c : chunks) {
                runtime.check((int) unmap.invokeExact(base + c[0], c[1]), "hipMemUnmap");
                runtime.check((int) release.invokeExact(c[2]), "hipMemRelease");
            }
            chunks.clear();
            runtime.check((int) addressFree.invokeExact(base, ranges.capacity()), "hipMemAddressFree");
        } catch (Throwable t) {
            throw HipRuntime.rethrow(t);
        } finally {
            arena.close();
        }
    }
}
