package dev.audioengine.gpu.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.function.IntFunction;

/**
 * Virtual memory management as CUDA's driver API and HIP spell it alike (HIP mirrors cuMem* as
 * hipMem*, with the same enum values and struct layouts): pinned device memory on one device, no
 * exportable handle. A mapping is made by create, map, release (the mapping keeps the memory until
 * it is unmapped) and set-access for this device.
 */
public final class MappedMemory implements GpuVirtualMemory {
    // CU_MEM_ALLOCATION_TYPE_PINNED / hipMemAllocationTypePinned, *_LOCATION_TYPE_DEVICE,
    // *_ACCESS_FLAGS_PROT_READWRITE,
    // *_ALLOC_GRANULARITY_MINIMUM
    static final int ALLOCATION_TYPE_PINNED = 1,
            LOCATION_TYPE_DEVICE = 1,
            ACCESS_PROT_READWRITE = 3,
            GRANULARITY_MINIMUM = 0;
    /** CUmemAllocationProp / hipMemAllocationProp: type, requestedHandleTypes, location {type, id}, win32HandleMetaData, allocFlags. */
    static final long ALLOCATION_PROP_BYTES = 32;
    /** CUmemAccessDesc / hipMemAccessDesc: location {type, id}, flags. */
    static final long ACCESS_DESC_BYTES = 12;

    private final String prefix;
    private final int device;
    private final int outOfMemory;
    private final IntFunction<String> errorName;
    private final MethodHandle granularity, addressReserve, addressFree, create, release, map, unmap, setAccess;

    /**
     * @param prefix      "cu" or "hip": the entry points are prefix + MemCreate, MemMap, ...
     * @param outOfMemory the status create returns when the device is full (CUDA_ERROR_OUT_OF_MEMORY, hipErrorOutOfMemory)
     */
    public MappedMemory(String prefix, NativeBinder bind, int device, int outOfMemory, IntFunction<String> errorName) {
        this.prefix = prefix;
        this.device = device;
        this.outOfMemory = outOfMemory;
        this.errorName = errorName;
        granularity = bind.bind(prefix + "MemGetAllocationGranularity", ADDRESS, ADDRESS, JAVA_INT);
        addressReserve = bind.bind(prefix + "MemAddressReserve", ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        addressFree = bind.bind(prefix + "MemAddressFree", JAVA_LONG, JAVA_LONG);
        create = bind.bind(prefix + "MemCreate", ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG);
        release = bind.bind(prefix + "MemRelease", JAVA_LONG);
        map = bind.bind(prefix + "MemMap", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
        unmap = bind.bind(prefix + "MemUnmap", JAVA_LONG, JAVA_LONG);
        setAccess = bind.bind(prefix + "MemSetAccess", JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG);
    }

    private void check(int status, String call) {
        GpuException.check(status, prefix + call, errorName);
    }

    /** Pinned memory on this device, no exportable handle. */
    private MemorySegment allocationProp(Arena a) {
        MemorySegment prop = a.allocate(ALLOCATION_PROP_BYTES, 8);
        prop.set(JAVA_INT, 0, ALLOCATION_TYPE_PINNED);
        prop.set(JAVA_INT, 8, LOCATION_TYPE_DEVICE);
        prop.set(JAVA_INT, 12, device);
        return prop;
    }

    @Override
    public long granularity() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check(
                    (int) granularity.invokeExact(out, allocationProp(a), GRANULARITY_MINIMUM),
                    "MemGetAllocationGranularity");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public long reserve(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check((int) addressReserve.invokeExact(out, bytes, 0L, 0L, 0L), "MemAddressReserve(" + bytes + " bytes)");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public boolean map(long address, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment handle = a.allocate(JAVA_LONG);
            int r = (int) create.invokeExact(handle, bytes, allocationProp(a), 0L);
            if (r == outOfMemory) return false;
            check(r, "MemCreate(" + bytes + " bytes)");
            long h = handle.get(JAVA_LONG, 0);
            try {
                check((int) map.invokeExact(address, bytes, 0L, h, 0L), "MemMap");
            } finally {
                check((int) release.invokeExact(h), "MemRelease");
            }
            MemorySegment access = a.allocate(ACCESS_DESC_BYTES, 4);
            access.set(JAVA_INT, 0, LOCATION_TYPE_DEVICE);
            access.set(JAVA_INT, 4, device);
            access.set(JAVA_INT, 8, ACCESS_PROT_READWRITE);
            check((int) setAccess.invokeExact(address, bytes, access, 1L), "MemSetAccess");
            return true;
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void unmap(long address, long bytes) {
        try {
            check((int) unmap.invokeExact(address, bytes), "MemUnmap");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void unreserve(long address, long bytes) {
        try {
            check((int) addressFree.invokeExact(address, bytes), "MemAddressFree");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }
}
