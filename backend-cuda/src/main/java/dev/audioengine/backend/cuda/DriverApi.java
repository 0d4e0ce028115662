package dev.audioengine.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.runtime.GpuVirtualMemory;
import dev.audioengine.gpu.runtime.MappedMemory;
import dev.audioengine.gpu.runtime.MirroredRuntime;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The CUDA driver entry points an open backend uses (cuda.h), as the op layer's runtime table: the
 * calls HIP mirrors (copies, page-locked memory, modules, launches, streams, events, stream capture)
 * through {@link MirroredRuntime} with their CUDA names, and here what is CUDA's own: the primary
 * context, the stream-ordered memory pool, the shared-memory opt-in. Handles (CUcontext, CUmodule,
 * CUfunction, CUstream, CUevent, CUgraph, CUgraphExec) are pointers and CUdeviceptr is a 64-bit
 * integer. Versioned names (_v2) are the ones cuda.h maps the plain names to since CUDA 11. Every call
 * is checked with the driver's error name. One instance per opened device: it retains the device's
 * primary context and sets up its memory pool; {@link #release()} lets the context go.
 */
final class DriverApi extends MirroredRuntime {
    /** Freed device memory the pool keeps cached for the next allocation. */
    static final long POOL_KEEP_BYTES = 1L << 30;

    static final int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
    static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    static final int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;

    private final CudaDriver driver;
    private final int ordinal;
    private final MethodHandle ctxRetain, ctxRelease, ctxSetCurrent, memAlloc, memFree;
    private final MethodHandle defaultMemPool,
            memPoolSetAttribute,
            memPoolTrimTo,
            memAllocAsync,
            memFreeAsync,
            funcSetAttribute;
    private final MappedMemory virtualMemory;
    private final MemorySegment context;
    private final MemorySegment pool;

    /** The CUDA names of the calls HIP mirrors. */
    static MirroredRuntime.Names names(SymbolLookup lib) {
        String elapsed = lib.find("cuEventElapsedTime_v2").isPresent() ? "cuEventElapsedTime_v2" : "cuEventElapsedTime";
        return new MirroredRuntime.Names(
                "cuMemGetInfo_v2",
                "cuMemcpyHtoD_v2",
                "cuMemcpyDtoH_v2",
                "cuMemcpyHtoDAsync_v2",
                "cuMemcpyDtoDAsync_v2",
                "cuMemsetD8Async",
                "cuMemHostAlloc",
                "cuMemFreeHost",
                "cuModuleLoadData",
                "cuModuleGetFunction",
                "cuModuleUnload",
                "cuLaunchKernel",
                "cuStreamCreate",
                "cuStreamSynchronize",
                "cuStreamDestroy_v2",
                "cuEventCreate",
                "cuEventRecord",
                "cuEventSynchronize",
                elapsed,
                "cuEventDestroy_v2",
                "cuStreamBeginCapture_v2",
                "cuStreamEndCapture",
                "cuGraphInstantiateWithFlags",
                "cuGraphLaunch",
                "cuGraphExecDestroy",
                "cuGraphDestroy");
    }

    /** Binds every entry point (IllegalStateException naming a missing one), then retains device {@code ordinal}'s primary context. */
    DriverApi(CudaDriver driver, SymbolLookup lib, String name, int ordinal) {
        super(names(lib), (symbol, args) -> Downcalls.bind(lib, name, symbol, args), driver::errorName);
        this.driver = driver;
        this.ordinal = ordinal;
        ctxRetain = Downcalls.bind(lib, name, "cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
        ctxRelease = Downcalls.bind(lib, name, "cuDevicePrimaryCtxRelease_v2", JAVA_INT);
        ctxSetCurrent = Downcalls.bind(lib, name, "cuCtxSetCurrent", ADDRESS);
        memAlloc = Downcalls.bind(lib, name, "cuMemAlloc_v2", ADDRESS, JAVA_LONG);
        memFree = Downcalls.bind(lib, name, "cuMemFree_v2", JAVA_LONG);
        defaultMemPool = Downcalls.bind(lib, name, "cuDeviceGetDefaultMemPool", ADDRESS, JAVA_INT);
        memPoolSetAttribute = Downcalls.bind(lib, name, "cuMemPoolSetAttribute", ADDRESS, JAVA_INT, ADDRESS);
        memPoolTrimTo = Downcalls.bind(lib, name, "cuMemPoolTrimTo", ADDRESS, JAVA_LONG);
        memAllocAsync = Downcalls.bind(lib, name, "cuMemAllocAsync", ADDRESS, JAVA_LONG, ADDRESS);
        memFreeAsync = Downcalls.bind(lib, name, "cuMemFreeAsync", JAVA_LONG, ADDRESS);
        funcSetAttribute = Downcalls.bind(lib, name, "cuFuncSetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
        virtualMemory = new MappedMemory(
                "cu",
                (symbol, args) -> Downcalls.bind(lib, name, symbol, args),
                ordinal,
                CUDA_ERROR_OUT_OF_MEMORY,
                driver::errorName);
        this.context = retainPrimaryContext(ordinal);
        try {
            setCurrent(context);
            // Device memory comes from the stream-ordered pool, which keeps freed blocks for reuse (a caching
            // allocator) up to the threshold; releaseCachedMemory() trims what is unused back to the driver.
            this.pool = defaultPool(ordinal);
            setReleaseThreshold(pool, POOL_KEEP_BYTES);
        } catch (RuntimeException e) {
            releasePrimaryContext(ordinal);
            throw e;
        }
    }

    @Override
    public String vendor() {
        return "CUDA";
    }

    @Override
    public void makeCurrent() {
        setCurrent(context);
    }

    @Override
    public void release() {
        releasePrimaryContext(ordinal);
    }

    @Override
    public long alloc(long bytes, MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int r = (int) memAllocAsync.invokeExact(p, bytes, stream);
            if (r == CUDA_ERROR_OUT_OF_MEMORY) return 0;
            check(r, "cuMemAllocAsync(" + bytes + " bytes)");
            return p.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** After the work already enqueued on {@code stream} (stream-ordered, back into the pool). */
    @Override
    public void free(long address, MemorySegment stream) {
        try {
            check((int) memFreeAsync.invokeExact(address, stream), "cuMemFreeAsync");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void releaseCachedMemory() {
        try {
            check((int) memPoolTrimTo.invokeExact(pool, 0L), "cuMemPoolTrimTo");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess and their inverses (CUDA 10.2 and later). */
    @Override
    public GpuVirtualMemory virtualMemory() {
        return virtualMemory;
    }

    @Override
    protected MemorySegment sized(MemorySegment pointer, long bytes) {
        return pointer.reinterpret(bytes);
    }

    @Override
    public void setMaxDynamicShared(MemorySegment function, int bytes) {
        try {
            check(
                    (int) funcSetAttribute.invokeExact(
                            function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
                    "cuFuncSetAttribute");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    CudaDriver driver() {
        return driver;
    }

    @Override
    public int maxSharedPerBlock() {
        try (Arena a = Arena.ofConfined()) {
            return driver.attribute(a, ordinal, CudaDriver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        }
    }

    private MemorySegment retainPrimaryContext(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) ctxRetain.invokeExact(out, device), "cuDevicePrimaryCtxRetain");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    private void releasePrimaryContext(int device) {
        try {
            check((int) ctxRelease.invokeExact(device), "cuDevicePrimaryCtxRelease_v2");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    private void setCurrent(MemorySegment ctx) {
        try {
            check((int) ctxSetCurrent.invokeExact(ctx), "cuCtxSetCurrent");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** cuMemAlloc's status and the pointer, outside the pool (cuBLASLt's workspace). */
    int memAlloc(long bytes, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int r = (int) memAlloc.invokeExact(p, bytes);
            out[0] = p.get(JAVA_LONG, 0);
            return r;
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    void memFree(long ptr) {
        try {
            check((int) memFree.invokeExact(ptr), "cuMemFree_v2");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** The device's default stream-ordered memory pool. */
    private MemorySegment defaultPool(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) defaultMemPool.invokeExact(out, device), "cuDeviceGetDefaultMemPool");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** Bytes the pool keeps reserved after frees instead of returning them to the driver at each synchronization. */
    private void setReleaseThreshold(MemorySegment pool, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            check(
                    (int) memPoolSetAttribute.invokeExact(
                            pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, a.allocateFrom(JAVA_LONG, bytes)),
                    "cuMemPoolSetAttribute(RELEASE_THRESHOLD)");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }
}
