package dev.audioengine.gpu.runtime;

/**
 * The vendor's virtual memory management (cuMemAddressReserve/cuMemCreate/cuMemMap/cuMemSetAccess,
 * the hipMem* equivalents), the table {@link VmmPool} grows a reserved address range through.
 */
public interface GpuVirtualMemory {
    /** The size every mapping is a multiple of (the allocation granularity). */
    long granularity();

    /** Reserves {@code bytes} of device address space (a multiple of the granularity); returns its base. */
    long reserve(long bytes);

    /**
     * Backs {@code [address, address + bytes)} with new device memory this device may read and write;
     * false when the device is out of memory. The memory is handed back by {@link #unmap}.
     */
    boolean map(long address, long bytes);

    /** Unmaps a range {@link #map} mapped, freeing its memory. */
    void unmap(long address, long bytes);

    /** Hands back an address range {@link #reserve} made, once nothing in it is mapped. */
    void unreserve(long address, long bytes);
}
