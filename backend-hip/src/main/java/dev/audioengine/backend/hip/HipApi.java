package dev.audioengine.backend.hip;

import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.GpuRuntime;
import dev.audioengine.gpu.GpuVirtualMemory;
import dev.audioengine.gpu.MappedMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The HIP runtime entry points an open backend uses (hip_runtime_api.h), as the op layer's
 * {@link GpuRuntime}: device memory (the device's stream-ordered pool where the runtime offers it,
 * else hipMalloc/hipFree), copies, page-locked host memory, modules and launches, streams, events and
 * stream capture into graphs. The names are the unsuffixed ones ROCm 5, 6 and 7 all export; where a
 * later ROCm renamed one (hipHostMalloc became hipHostAlloc), the first name found is bound.
 * Handles are pointers; hipDeviceptr_t is a pointer passed as a 64-bit integer.
 */
final class HipApi implements GpuRuntime {
    static final int HIP_ERROR_OUT_OF_MEMORY = 2;
    static final int HIP_STREAM_NON_BLOCKING = 1;
    static final int HIP_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
    static final int HIP_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
    /** hipHostMallocDefault. */
    static final int HIP_HOST_MALLOC_DEFAULT = 0;
    /** Freed device memory the pool keeps cached for the next allocation. */
    static final long POOL_KEEP_BYTES = 1L << 30;

    /** Every symbol this class binds, for the test that binds them against a real runtime. */
    static final List<String> SYMBOLS = List.of("hipSetDevice", "hipMemGetInfo", "hipMalloc", "hipFree", "hipMallocAsync", "hipFreeAsync",
            "hipDeviceGetDefaultMemPool", "hipMemPoolSetAttribute", "hipMemPoolTrimTo", "hipMemcpyHtoD", "hipMemcpyDtoH",
            "hipMemcpyHtoDAsync", "hipMemcpyDtoDAsync", "hipMemsetD8Async", "hipHostMalloc|hipHostAlloc", "hipHostFree",
            "hipModuleLoadData", "hipModuleGetFunction", "hipModuleUnload", "hipModuleLaunchKernel", "hipStreamCreateWithFlags",
            "hipStreamSynchronize", "hipStreamDestroy", "hipEventCreate", "hipEventRecord", "hipEventSynchronize", "hipEventElapsedTime",
            "hipEventDestroy", "hipStreamBeginCapture", "hipStreamEndCapture", "hipGraphInstantiateWithFlags", "hipGraphLaunch",
            "hipGraphExecDestroy", "hipGraphDestroy");
    /** The virtual memory entry points (hip.vmm=on), bound when a device is opened. */
    static final List<String> VMM_SYMBOLS = List.of("hipMemGetAllocationGranularity", "hipMemAddressReserve", "hipMemAddressFree",
            "hipMemCreate", "hipMemRelease", "hipMemMap", "hipMemUnmap", "hipMemSetAccess");

    private final HipRuntime runtime;
    private final String library;
    private final MethodHandle setDevice, memGetInfo, malloc, free, mallocAsync, freeAsync, defaultMemPool, memPoolSetAttribute, memPoolTrimTo;
    private final MethodHandle htod, dtoh, htodAsync, dtodAsync, memsetAsync, hostMalloc, hostFree;
    private final MethodHandle moduleLoadData, moduleGetFunction, moduleUnload, launchKernel;
    private final MethodHandle streamCreate, streamSynchronize, streamDestroy;
    private final MethodHandle eventCreate, eventRecord, eventSynchronize, eventElapsed, eventDestroy;
    private final MethodHandle beginCapture, endCapture, graphInstantiate, graphLaunch, graphExecDestroy, graphDestroy;
    private int ordinal = -1;
    private MemorySegment pool; // null: hipMalloc/hipFree
    private final SymbolLookup lib;
    private MappedMemory virtualMemory;

    /** Binds every entry point (IllegalStateException naming a missing one); touches no device. */
    HipApi(HipRuntime runtime, SymbolLookup lib, String library) {
        this.runtime = runtime;
        this.library = library;
        this.lib = lib;
        setDevice = bind(lib, "hipSetDevice", JAVA_INT);
        memGetInfo = bind(lib, "hipMemGetInfo", ADDRESS, ADDRESS);
        malloc = bind(lib, "hipMalloc", ADDRESS, JAVA_LONG);
        free = bind(lib, "hipFree", JAVA_LONG);
        mallocAsync = bind(lib, "hipMallocAsync", ADDRESS, JAVA_LONG, ADDRESS);
        freeAsync = bind(lib, "hipFreeAsync", JAVA_LONG, ADDRESS);
        defaultMemPool = bind(lib, "hipDeviceGetDefaultMemPool", ADDRESS, JAVA_INT);
        memPoolSetAttribute = bind(lib, "hipMemPoolSetAttribute", ADDRESS, JAVA_INT, ADDRESS);
        memPoolTrimTo = bind(lib, "hipMemPoolTrimTo", ADDRESS, JAVA_LONG);
        htod = bind(lib, "hipMemcpyHtoD", JAVA_LONG, ADDRESS, JAVA_LONG);
        dtoh = bind(lib, "hipMemcpyDtoH", ADDRESS, JAVA_LONG, JAVA_LONG);
        htodAsync = bind(lib, "hipMemcpyHtoDAsync", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
        dtodAsync = bind(lib, "hipMemcpyDtoDAsync", JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS);
        memsetAsync = bind(lib, "hipMemsetD8Async", JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS);
        hostMalloc = bindFirst(lib, List.of("hipHostMalloc", "hipHostAlloc"), ADDRESS, JAVA_LONG, JAVA_INT);
        hostFree = bind(lib, "hipHostFree", ADDRESS);
        moduleLoadData = bind(lib, "hipModuleLoadData", ADDRESS, ADDRESS);
        moduleGetFunction = bind(lib, "hipModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
        moduleUnload = bind(lib, "hipModuleUnload", ADDRESS);
        launchKernel = bind(lib, "hipModuleLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                ADDRESS, ADDRESS, ADDRESS);
        streamCreate = bind(lib, "hipStreamCreateWithFlags", ADDRESS, JAVA_INT);
        streamSynchronize = bind(lib, "hipStreamSynchronize", ADDRESS);
        streamDestroy = bind(lib, "hipStreamDestroy", ADDRESS);
        eventCreate = bind(lib, "hipEventCreate", ADDRESS);
        eventRecord = bind(lib, "hipEventRecord", ADDRESS, ADDRESS);
        eventSynchronize = bind(lib, "hipEventSynchronize", ADDRESS);
        eventElapsed = bind(lib, "hipEventElapsedTime", ADDRESS, ADDRESS, ADDRESS);
        eventDestroy = bind(lib, "hipEventDestroy", ADDRESS);
        beginCapture = bind(lib, "hipStreamBeginCapture", ADDRESS, JAVA_INT);
        endCapture = bind(lib, "hipStreamEndCapture", ADDRESS, ADDRESS);
        graphInstantiate = bind(lib, "hipGraphInstantiateWithFlags", ADDRESS, ADDRESS, JAVA_LONG);
        graphLaunch = bind(lib, "hipGraphLaunch", ADDRESS, ADDRESS);
        graphExecDestroy = bind(lib, "hipGraphExecDestroy", ADDRESS);
        graphDestroy = bind(lib, "hipGraphDestroy", ADDRESS);
    }

    private MethodHandle bind(SymbolLookup lib, String name, MemoryLayout... args) {
        return HipRuntime.bind(lib, library, name, "it is not a ROCm 5 or later HIP runtime", args);
    }

    private MethodHandle bindFirst(SymbolLookup lib, List<String> names, MemoryLayout... args) {
        for (String n : names) {
            var s = lib.find(n);
            if (s.isPresent()) return Linker.nativeLinker().downcallHandle(s.get(), FunctionDescriptor.of(JAVA_INT, args));
        }
        throw new IllegalStateException(library + " exports none of " + String.join(", ", names));
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
                check((int) memPoolSetAttribute.invokeExact(p, HIP_MEMPOOL_ATTR_RELEASE_THRESHOLD, a.allocateFrom(JAVA_LONG, POOL_KEEP_BYTES)),
                        "hipMemPoolSetAttribute(ReleaseThreshold)");
                pool = p;
            }
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** hipMemAddressReserve, hipMemCreate, hipMemMap, hipMemSetAccess and their inverses, for the device {@link #open} opened. */
    @Override
    public GpuVirtualMemory virtualMemory() {
        if (virtualMemory == null) virtualMemory = virtualMemory(ordinal);
        return virtualMemory;
    }

    /** The virtual memory table for {@code device}; binding needs no device, so tests bind it without one. */
    MappedMemory virtualMemory(int device) {
        return new MappedMemory("hip", (name, args) -> bind(lib, name, args), device, HIP_ERROR_OUT_OF_MEMORY, runtime::errorName);
    }

    /** Whether device memory comes from the stream-ordered pool (else hipMalloc/hipFree). */
    boolean pooled() { return pool != null; }

    private void check(int r, String call) { runtime.check(r, call); }

    @Override public String vendor() { return "HIP"; }

    @Override
    public void makeCurrent() {
        try { check((int) setDevice.invokeExact(ordinal), "hipSetDevice(" + ordinal + ")"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** Nothing to let go: the HIP runtime keeps one context per device for the process. */
    @Override public void release() {}

    @Override
    public long[] memInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment freeBytes = a.allocate(JAVA_LONG), total = a.allocate(JAVA_LONG);
            check((int) memGetInfo.invokeExact(freeBytes, total), "hipMemGetInfo");
            return new long[] {freeBytes.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public long alloc(long bytes, MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int r = pool != null ? (int) mallocAsync.invokeExact(p, bytes, stream) : (int) malloc.invokeExact(p, bytes);
            if (r == HIP_ERROR_OUT_OF_MEMORY) return 0;
            check(r, (pool != null ? "hipMallocAsync(" : "hipMalloc(") + bytes + " bytes)");
            return p.get(JAVA_LONG, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** Synchronous device memory outside the pool (hipBLASLt's workspace). */
    long allocWorkspace(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            check((int) malloc.invokeExact(p, bytes), "hipMalloc(" + bytes + " bytes, hipBLASLt workspace)");
            return p.get(JAVA_LONG, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    void freeWorkspace(long address) {
        try { check((int) free.invokeExact(address), "hipFree"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** With the pool, after the work enqueued on {@code stream}; hipFree waits for the device itself. */
    @Override
    public void free(long address, MemorySegment stream) {
        try {
            if (pool != null) check((int) freeAsync.invokeExact(address, stream), "hipFreeAsync");
            else check((int) free.invokeExact(address), "hipFree");
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void releaseCachedMemory() {
        if (pool == null) return;
        try { check((int) memPoolTrimTo.invokeExact(pool, 0L), "hipMemPoolTrimTo"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyHtoD(long dst, MemorySegment src, long bytes) {
        try { check((int) htod.invokeExact(dst, src, bytes), "hipMemcpyHtoD"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyDtoH(MemorySegment dst, long src, long bytes) {
        try { check((int) dtoh.invokeExact(dst, src, bytes), "hipMemcpyDtoH"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        try { check((int) htodAsync.invokeExact(dst, src, bytes, stream), "hipMemcpyHtoDAsync"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyDtoDAsync(long dst, long src, long bytes, MemorySegment stream) {
        try { check((int) dtodAsync.invokeExact(dst, src, bytes, stream), "hipMemcpyDtoDAsync"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void memsetAsync(long dst, byte value, long bytes, MemorySegment stream) {
        try { check((int) memsetAsync.invokeExact(dst, value, bytes, stream), "hipMemsetD8Async"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment hostAlloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) hostMalloc.invokeExact(out, bytes, HIP_HOST_MALLOC_DEFAULT), "hipHostMalloc");
            return out.get(ADDRESS, 0).reinterpret(bytes);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void hostFree(MemorySegment memory) {
        try { check((int) hostFree.invokeExact(memory), "hipHostFree"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment loadModule(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) moduleLoadData.invokeExact(out, image), "hipModuleLoadData");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment function(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) moduleGetFunction.invokeExact(out, module, a.allocateFrom(name)), "hipModuleGetFunction(" + name + ")");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void unloadModule(MemorySegment module) {
        try { check((int) moduleUnload.invokeExact(module), "hipModuleUnload"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /**
     * Nothing to do: AMD GPUs need no opt-in for dynamic LDS beyond 48 KiB (hipFuncSetAttribute takes
     * host stubs, not module functions). A block that asks for more LDS than the device has (64 KiB on
     * most, 160 KiB on gfx950) fails at hipModuleLaunchKernel with the runtime's error.
     */
    @Override
    public void setMaxDynamicShared(MemorySegment function, int bytes) {}

    @Override
    public void launch(MemorySegment f, int gx, int gy, int gz, int bx, int by, int bz, int shared, MemorySegment stream, MemorySegment params) {
        try {
            check((int) launchKernel.invokeExact(f, gx, gy, gz, bx, by, bz, shared, stream, params, MemorySegment.NULL), "hipModuleLaunchKernel");
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment createStream() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) streamCreate.invokeExact(out, HIP_STREAM_NON_BLOCKING), "hipStreamCreateWithFlags");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void synchronize(MemorySegment stream) {
        try { check((int) streamSynchronize.invokeExact(stream), "hipStreamSynchronize"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        try { check((int) streamDestroy.invokeExact(stream), "hipStreamDestroy"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment createEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) eventCreate.invokeExact(out), "hipEventCreate");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void record(MemorySegment event, MemorySegment stream) {
        try { check((int) eventRecord.invokeExact(event, stream), "hipEventRecord"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void synchronizeEvent(MemorySegment event) {
        try { check((int) eventSynchronize.invokeExact(event), "hipEventSynchronize"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            check((int) eventSynchronize.invokeExact(end), "hipEventSynchronize");
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            check((int) eventElapsed.invokeExact(ms, start, end), "hipEventElapsedTime");
            return ms.get(JAVA_FLOAT, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        try { check((int) eventDestroy.invokeExact(event), "hipEventDestroy"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void beginCapture(MemorySegment stream) {
        try {
            check((int) beginCapture.invokeExact(stream, HIP_STREAM_CAPTURE_MODE_THREAD_LOCAL), "hipStreamBeginCapture");
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment endCaptureAndInstantiate(MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(ADDRESS), exec = a.allocate(ADDRESS);
            check((int) endCapture.invokeExact(stream, g), "hipStreamEndCapture");
            MemorySegment graph = g.get(ADDRESS, 0);
            try {
                check((int) graphInstantiate.invokeExact(exec, graph, 0L), "hipGraphInstantiateWithFlags");
            } finally {
                check((int) graphDestroy.invokeExact(graph), "hipGraphDestroy");
            }
            return exec.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void launchGraph(MemorySegment exec, MemorySegment stream) {
        try { check((int) graphLaunch.invokeExact(exec, stream), "hipGraphLaunch"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void destroyGraphExec(MemorySegment exec) {
        try { check((int) graphExecDestroy.invokeExact(exec), "hipGraphExecDestroy"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }
}
