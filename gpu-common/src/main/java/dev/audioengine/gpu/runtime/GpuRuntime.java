package dev.audioengine.gpu.runtime;

import java.lang.foreign.MemorySegment;

/**
 * The vendor runtime one opened device is driven through (the CUDA driver API, the HIP runtime):
 * the only way the op layer reaches the vendor besides {@code compile.GpuKernelCompiler} and {@code gemm.GpuBlas}.
 * Handles (streams, modules, functions, events, graphs) are opaque pointers; device addresses are
 * 64-bit integers, 0 being null. Every failing call throws {@code GpuException} named by the
 * vendor's error name. One instance per opened device; the backend serializes its use.
 */
public interface GpuRuntime {
    /** The vendor as messages name it: "CUDA", "HIP". */
    String vendor();

    /** Makes this device current on the calling thread (cuCtxSetCurrent, hipSetDevice). */
    void makeCurrent();

    /** {free, total} bytes of the device. */
    long[] memInfo();

    /**
     * The most dynamic shared memory one block can be given, in bytes (CUDA: the opt-in maximum,
     * 227 KiB on Hopper; HIP: the LDS of a workgroup, 64 KiB on most AMD GPUs). Ops whose blocks
     * would need more report themselves unsupported instead of failing at launch.
     */
    int maxSharedPerBlock();

    /**
     * Device memory, stream-ordered where the vendor has a pool (cuMemAllocAsync, hipMallocAsync);
     * 0 when the device is out of memory (the caller then synchronizes and hands cached memory back).
     */
    long alloc(long bytes, MemorySegment stream);

    /** Frees after the work already enqueued on {@code stream}, which may still read the memory. */
    void free(long address, MemorySegment stream);

    /** Hands memory the pool keeps cached for reuse back to the driver. */
    void releaseCachedMemory();

    void copyHtoD(long dst, MemorySegment src, long bytes);

    void copyDtoH(MemorySegment dst, long src, long bytes);

    /** {@code src} must be page-locked ({@link #hostAlloc}) for the copy to be asynchronous. */
    void copyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream);

    void copyDtoDAsync(long dst, long src, long bytes, MemorySegment stream);

    void memsetAsync(long dst, byte value, long bytes, MemorySegment stream);

    /** Page-locked host memory, {@code bytes} long (the DMA engines read it directly). */
    MemorySegment hostAlloc(long bytes);

    void hostFree(MemorySegment memory);

    /** Loads a code object (CUBIN, AMD code object) the kernel compiler produced. */
    MemorySegment loadModule(MemorySegment image);

    MemorySegment function(MemorySegment module, String name);

    void unloadModule(MemorySegment module);

    /** Lets {@code function} use more than the default 48 KiB of dynamic shared memory. */
    void setMaxDynamicShared(MemorySegment function, int bytes);

    /** Enqueues a kernel; {@code params} is the {@code void**} array kernel argument packing made (ops.LaunchArgs). */
    void launch(
            MemorySegment function,
            int gx,
            int gy,
            int gz,
            int bx,
            int by,
            int bz,
            int sharedBytes,
            MemorySegment stream,
            MemorySegment params);

    /** A non-blocking stream (no implicit synchronization with the null stream). */
    MemorySegment createStream();

    void synchronize(MemorySegment stream);

    void destroyStream(MemorySegment stream);

    MemorySegment createEvent();

    void record(MemorySegment event, MemorySegment stream);

    /** Waits until the work recorded in {@code event} is done. */
    void synchronizeEvent(MemorySegment event);

    /** Milliseconds between two recorded events, after waiting for the second. */
    float elapsedMillis(MemorySegment start, MemorySegment end);

    void destroyEvent(MemorySegment event);

    /** Starts capturing what this thread enqueues on {@code stream} into a graph. */
    void beginCapture(MemorySegment stream);

    /** Ends the capture and instantiates it; the template graph is destroyed, the executable graph returned. */
    MemorySegment endCaptureAndInstantiate(MemorySegment stream);

    void launchGraph(MemorySegment executableGraph, MemorySegment stream);

    void destroyGraphExec(MemorySegment executableGraph);

    /** The vendor's virtual memory management, for the {@code P.vmm=on} pool. */
    GpuVirtualMemory virtualMemory();

    /** Releases the device (the CUDA primary context); called once, last. */
    void release();
}
