package dev.audioengine.backend.hip;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.runtime.GpuVirtualMemory;
import dev.audioengine.gpu.runtime.MappedMemory;
import dev.audioengine.gpu.runtime.MirroredRuntime;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.stream.Stream;

/**
 * The HIP runtime entry points an open backend uses (hip_runtime_api.h), as the op layer's runtime
 * table: the calls HIP mirrors from CUDA's driver API (copies, page-locked memory, modules, launches,
 * streams, events, stream capture) through {@link MirroredRuntime} with their HIP names, and here
 * what is HIP's own: hipSetDevice, and device memory from the device's stream-ordered pool where the
 * runtime offers one, else hipMalloc/hipFree. The names are the unsuffixed ones ROCm 5, 6 and 7 all
 * export; where ROCm 7 deprecates one (hipHostMalloc for hipHostAlloc), the first name found is bound.
 * Handles are pointers; hipDeviceptr_t is a pointer passed as a 64-bit integer.
 */
final class HipApi extends MirroredRuntime {
    static final int HIP_ERROR_OUT_OF_MEMORY = 2;
    static final int HIP_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
    /** Freed device memory the pool keeps cached for the next allocation. */
    static final long POOL_KEEP_BYTES = 1L << 30;
    /** HIP's own entry points this class binds besides the mirrored ones. */
    static final List<String> OWN_SYMBOLS = List.of(
            "hipSetDevice",
            "hipMalloc",
            "hipFree",
            "hipMallocAsync",
            "hipFreeAsync",
            "hipDeviceGetDefaultMemPool",
            "hipMemPoolSetAttribute",
            "hipMemPoolTrimTo");
    /** The virtual memory entry points (hip.vmm=on). */
    static final List<String> VMM_SYMBOLS = List.of(
            "hipMemGetAllocationGranularity",
            "hipMemAddressReserve",
            "hipMemAddressFree",
            "hipMemCreate",
            "hipMemRelease",
            "hipMemMap",
            "hipMemUnmap",
            "hipMemSetAccess");

    private final HipRuntime runtime;
    private final String library;
    private final SymbolLookup lib;
    private final MethodHandle setDevice,
            malloc,
            free,
            mallocAsync,
            freeAsync,
            defaultMemPool,
            memPoolSetAttribute,
            memPoolTrimTo;
    private int ordinal = -1;
    private MemorySegment pool; // null: hipMalloc/hipFree
    private MappedMemory virtualMemory;

    /** The HIP names of the calls HIP mirrors from CUDA. */
    static MirroredRuntime.Names names(SymbolLookup lib) {
        String hostAlloc = lib.find("hipHostMalloc").isPresent() ? "hipHostMalloc" : "hipHostAlloc";
        return new MirroredRuntime.Names(
                "hipMemGetInfo",
                "hipMemcpyHtoD",
                "hipMemcpyDtoH",
                "hipMemcpyHtoDAsync",
                "hipMemcpyDtoDAsync",
                "hipMemsetD8Async",
                hostAlloc,
                "hipHostFree",
                "hipModuleLoadData",
                "hipModuleGetFunction",
                "hipModuleUnload",
                "hipModuleLaunchKernel",
                "hipStreamCreateWithFlags",
                "hipStreamSynchronize",
                "hipStreamDestroy",
                "hipEventCreateWithFlags",
                "hipEventRecord",
                "hipEventSynchronize",
                "hipEventElapsedTime",
                "hipEventDestroy",
                "hipStreamBeginCapture",
                "hipStreamEndCapture",
                "hipGraphInstantiateWithFlags",
                "hipGraphLaunch",
                "hipGraphExecDestroy",
                "hipGraphDestroy");
    }

    /** Every entry point this class binds in {@code lib}, mirrored and own. */
    static List<String> symbols(SymbolLookup lib) {
        return Stream.concat(names(lib).all().stream(), OWN_SYMBOLS.stream()).toList();
    }

    /** Binds every entry point (IllegalStateException naming a missing one); touches no device. */
    HipApi(HipRuntime runtime, SymbolLookup lib, String library) {
        super(names(lib), (name, args) -> bind(lib, library, name, args), runtime::errorName);
        this.runtime = runtime;
        this.library = library;
        this.lib = lib;
        setDevice = bind(lib, library, "hipSetDevice", JAVA_INT);
        malloc = bind(lib, library, "hipMalloc", ADDRESS, JAVA_LONG);
        free = bind(lib, library, "hipFree", JAVA_LONG);
        mallocAsync = bind(lib, library, "hipMallocAsync", ADDRESS, JAVA_LONG, ADDRESS);
        freeAsync = bind(lib, library, "hipFreeAsync", JAVA_LONG, ADDRESS);
        defaultMemPool = bind(lib, library, "hipDeviceGetDefaultMemPool", ADDRESS, JAVA_INT);
        memPoolSetAttribute = bind(lib, library, "hipMemPoolSetAttribute", ADDRESS, JAVA_INT, ADDRESS);
        memPoolTrimTo = bind(lib, library, "hipMemPoolTrimTo", ADDRESS, JAVA_LONG);
    }

    private static MethodHandle bind(SymbolLookup lib, String library, String name, MemoryLayout... args) {
        return HipRuntime.bind(lib, library, name, "it is not a ROCm 5 or later HIP runtime", args);
    }

    /**
     * Makes device {@code ordinal} current and sets up its memory: the default stream-ordered pool,
     * keeping up to {@link #POOL_KEEP_BYTES} of freed memory, where the device has one; else plain hipMalloc.
     */
    void open(int ordinal) {
        this.ordinal = ordinal;
        makeCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int r = (int) defaultMemPool.invokeExact(out, ordinal);
            if (r == HipRuntime.HIP_SUCCESS) {
                MemorySegment p = out.get(ADDRESS, 0);
                check(
                        (int) memPoolSetAttribute.invokeExact(
                                p, HIP_MEMPOOL_ATTR_RELEASE_THRESHOLD, a.allocateFrom(JAVA_LONG, POOL_KEEP_BYTES)),
                        "hipMemPoolSetAttribute(ReleaseThreshold)");
                pool = p;
            }
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public int maxSharedPerBlock() {
        try (Arena a = Arena.ofConfined()) {
            return runtime.attribute(a, ordinal, HipRuntime.HIP_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
        }
    }

    /** Whether device memory comes from the stream-ordered pool (else hipMalloc/hipFree). */
    boolean pooled() {
        return pool != null;
    }

    @Override
    public String vendor() {
        return "HIP";
    }

    @Override
    public void makeCurrent() {
        try {
            check((int) setDevice.invokeExact(ordinal), "hipSetDevice(" + ordinal + ")");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** Nothing to let go: the HIP runtime keeps one context per device for the process. */
    @Override
    public void release() {}

    @Override
    public long alloc(long bytes, MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int r = pool != null ? (int) mallocAsync.invokeExact(p, bytes, stream) : (int) malloc.invokeExact(p, bytes);
            if (r == HIP_ERROR_OUT_OF_MEMORY) return 0;
            check(r, (pool != null ? "hipMallocAsync(" : "hipMalloc(") + bytes + " bytes)");
            return p.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** With the pool, after the work enqueued on {@code stream}; hipFree waits for the device itself. */
    @Override
    public void free(long address, MemorySegment stream) {
        try {
            if (pool != null) check((int) freeAsync.invokeExact(address, stream), "hipFreeAsync");
            else check((int) free.invokeExact(address), "hipFree");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void releaseCachedMemory() {
        if (pool == null) return;
        try {
            check((int) memPoolTrimTo.invokeExact(pool, 0L), "hipMemPoolTrimTo");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** Synchronous device memory outside the pool (hipBLASLt's workspace). */
    long allocWorkspace(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            check((int) malloc.invokeExact(p, bytes), "hipMalloc(" + bytes + " bytes, hipBLASLt workspace)");
            return p.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    void freeWorkspace(long address) {
        try {
            check((int) free.invokeExact(address), "hipFree");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** hipMemAddressReserve, hipMemCreate, hipMemMap, hipMemSetAccess and their inverses, for the device {@link #open} opened. */
    @Override
    public GpuVirtualMemory virtualMemory() {
        if (virtualMemory == null) virtualMemory = virtualMemory(ordinal);
        return virtualMemory;
    }

    /** The virtual memory table for {@code device}; binding needs no device, so tests bind it without one. */
    MappedMemory virtualMemory(int device) {
        return new MappedMemory(
                "hip",
                (name, args) -> bind(lib, library, name, args),
                device,
                HIP_ERROR_OUT_OF_MEMORY,
                runtime::errorName);
    }

    @Override
    protected MemorySegment sized(MemorySegment pointer, long bytes) {
        return pointer.reinterpret(bytes);
    }

    /**
     * Nothing to do: AMD GPUs need no opt-in for dynamic LDS beyond 48 KiB (hipFuncSetAttribute takes
     * host stubs, not module functions). A block that asks for more LDS than the device has (64 KiB on
     * most, 160 KiB on gfx950) fails at hipModuleLaunchKernel with the runtime's error.
     */
    @Override
    public void setMaxDynamicShared(MemorySegment function, int bytes) {}
}
