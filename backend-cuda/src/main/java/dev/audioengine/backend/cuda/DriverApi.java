package dev.audioengine.backend.cuda;

import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.GpuRuntime;
import dev.audioengine.gpu.GpuVirtualMemory;
import dev.audioengine.gpu.MappedMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The CUDA driver entry points an open backend uses (cuda.h): the primary context, memory and
 * copies, modules and launches, streams, events and stream capture into graphs. Handles
 * (CUcontext, CUmodule, CUfunction, CUstream, CUevent, CUgraph, CUgraphExec) are pointers and
 * CUdeviceptr is a 64-bit integer, both passed as Java longs / segments. Every call is checked
 * through {@link CudaDriver#check}. One instance per opened device: it retains the device's primary
 * context and sets up its stream-ordered memory pool; {@link #release()} lets the context go.
 */
final class DriverApi implements GpuRuntime {
    /** Freed device memory the pool keeps cached for the next allocation. */
    static final long POOL_KEEP_BYTES = 1L << 30;

    static final int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
    static final int CU_STREAM_NON_BLOCKING = 1;
    static final int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
    static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    static final int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;

    private final CudaDriver driver;
    private final int ordinal;
    private final MemorySegment context;
    private final MemorySegment pool;
    private final MappedMemory virtualMemory;
    private final MethodHandle ctxRetain, ctxRelease, ctxSetCurrent, memGetInfo;
    private final MethodHandle memAlloc, memFree, htod, dtoh, dtodAsync, memsetAsync;
    private final MethodHandle memHostAlloc, memFreeHost, htodAsync;
    private final MethodHandle defaultMemPool, memPoolSetAttribute, memPoolTrimTo, memAllocAsync, memFreeAsync;
    private final MethodHandle moduleLoadData, moduleGetFunction, moduleUnload, funcSetAttribute, launchKernel;
    private final MethodHandle streamCreate, streamSynchronize, streamDestroy;
    private final MethodHandle eventCreate, eventRecord, eventSynchronize, eventElapsed, eventDestroy;
    private final MethodHandle beginCapture, endCapture, graphInstantiate, graphLaunch, graphExecDestroy, graphDestroy;

    /** Binds every entry point (IllegalStateException naming a missing one), then retains device {@code ordinal}'s primary context. */
    DriverApi(CudaDriver driver, SymbolLookup lib, String name, int ordinal) {
        this.driver = driver;
        this.ordinal = ordinal;
        ctxRetain = Downcalls.bind(lib, name, "cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
        ctxRelease = Downcalls.bind(lib, name, "cuDevicePrimaryCtxRelease_v2", JAVA_INT);
        ctxSetCurrent = Downcalls.bind(lib, name, "cuCtxSetCurrent", ADDRESS);
        memGetInfo = Downcalls.bind(lib, name, "cuMemGetInfo_v2", ADDRESS, ADDRESS);
        memAlloc = Downcalls.bind(lib, name, "cuMemAlloc_v2", ADDRESS, JAVA_LONG);
        memFree = Downcalls.bind(lib, name, "cuMemFree_v2", JAVA_LONG);
        defaultMemPool = Downcalls.bind(lib, name, "cuDeviceGetDefaultMemPool", ADDRESS, JAVA_INT);
        memPoolSetAttribute = Downcalls.bind(lib, name, "cuMemPoolSetAttribute", ADDRESS, JAVA_INT, ADDRESS);
        memPoolTrimTo = Downcalls.bind(lib, name, "cuMemPoolTrimTo", ADDRESS, JAVA_LONG);
        memAllocAsync = Downcalls.bind(lib, name, "cuMemAllocAsync", ADDRESS, JAVA_LONG, ADDRESS);
        memFreeAsync = Downcalls.bind(lib, name, "cuMemFreeAsync", JAVA_LONG, ADDRESS);
        htod = Downcalls.bind(lib, name, "cuMemcpyHtoD_v2", JAVA_LONG, ADDRESS, JAVA_LONG);
        dtoh = Downcalls.bind(lib, name, "cuMemcpyDtoH_v2", ADDRESS, JAVA_LONG, JAVA_LONG);
        dtodAsync = Downcalls.bind(lib, name, "cuMemcpyDtoDAsync_v2", JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS);
        memHostAlloc = Downcalls.bind(lib, name, "cuMemHostAlloc", ADDRESS, JAVA_LONG, JAVA_INT);
        memFreeHost = Downcalls.bind(lib, name, "cuMemFreeHost", ADDRESS);
        htodAsync = Downcalls.bind(lib, name, "cuMemcpyHtoDAsync_v2", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
        memsetAsync = Downcalls.bind(lib, name, "cuMemsetD8Async", JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS);
        moduleLoadData = Downcalls.bind(lib, name, "cuModuleLoadData", ADDRESS, ADDRESS);
        moduleGetFunction = Downcalls.bind(lib, name, "cuModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
        moduleUnload = Downcalls.bind(lib, name, "cuModuleUnload", ADDRESS);
        funcSetAttribute = Downcalls.bind(lib, name, "cuFuncSetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
        launchKernel = Downcalls.bind(lib, name, "cuLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        streamCreate = Downcalls.bind(lib, name, "cuStreamCreate", ADDRESS, JAVA_INT);
        streamSynchronize = Downcalls.bind(lib, name, "cuStreamSynchronize", ADDRESS);
        streamDestroy = Downcalls.bind(lib, name, "cuStreamDestroy_v2", ADDRESS);
        eventCreate = Downcalls.bind(lib, name, "cuEventCreate", ADDRESS, JAVA_INT);
        eventRecord = Downcalls.bind(lib, name, "cuEventRecord", ADDRESS, ADDRESS);
        eventSynchronize = Downcalls.bind(lib, name, "cuEventSynchronize", ADDRESS);
        eventElapsed = Downcalls.bindFirst(lib, name, new String[] {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, ADDRESS, ADDRESS, ADDRESS);
        eventDestroy = Downcalls.bind(lib, name, "cuEventDestroy_v2", ADDRESS);
        beginCapture = Downcalls.bind(lib, name, "cuStreamBeginCapture_v2", ADDRESS, JAVA_INT);
        endCapture = Downcalls.bind(lib, name, "cuStreamEndCapture", ADDRESS, ADDRESS);
        graphInstantiate = Downcalls.bind(lib, name, "cuGraphInstantiateWithFlags", ADDRESS, ADDRESS, JAVA_LONG);
        graphLaunch = Downcalls.bind(lib, name, "cuGraphLaunch", ADDRESS, ADDRESS);
        graphExecDestroy = Downcalls.bind(lib, name, "cuGraphExecDestroy", ADDRESS);
        graphDestroy = Downcalls.bind(lib, name, "cuGraphDestroy", ADDRESS);
        virtualMemory = new MappedMemory("cu", (symbol, args) -> Downcalls.bind(lib, name, symbol, args), ordinal, CUDA_ERROR_OUT_OF_MEMORY,
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

    @Override public String vendor() { return "CUDA"; }

    @Override public void makeCurrent() { setCurrent(context); }

    @Override public void release() { releasePrimaryContext(ordinal); }

    @Override
    public long alloc(long bytes, MemorySegment stream) {
        long[] out = new long[1];
        int r = memAllocAsync(bytes, stream, out);
        if (r == CUDA_ERROR_OUT_OF_MEMORY) return 0;
        driver.check(r, "cuMemAllocAsync(" + bytes + " bytes)");
        return out[0];
    }

    @Override public void free(long address, MemorySegment stream) { memFreeAsync(address, stream); }

    @Override public void releaseCachedMemory() { trimPool(pool, 0); }

    /** cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess and their inverses (CUDA 10.2 and later). */
    @Override public GpuVirtualMemory virtualMemory() { return virtualMemory; }

    CudaDriver driver() { return driver; }

    private void check(int r, String call) { driver.check(r, call); }

    MemorySegment retainPrimaryContext(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) ctxRetain.invokeExact(out, device), "cuDevicePrimaryCtxRetain");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    void releasePrimaryContext(int device) {
        try { check((int) ctxRelease.invokeExact(device), "cuDevicePrimaryCtxRelease_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    void setCurrent(MemorySegment ctx) {
        try { check((int) ctxSetCurrent.invokeExact(ctx), "cuCtxSetCurrent"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** {free, total} bytes of the current context's device. */
    @Override
    public long[] memInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG), total = a.allocate(JAVA_LONG);
            check((int) memGetInfo.invokeExact(free, total), "cuMemGetInfo_v2");
            return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** cuMemAlloc's status and the pointer: the caller turns out-of-memory into its own exception. */
    int memAlloc(long bytes, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int r = (int) memAlloc.invokeExact(p, bytes);
            out[0] = p.get(JAVA_LONG, 0);
            return r;
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** The device's default stream-ordered memory pool. */
    MemorySegment defaultPool(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) defaultMemPool.invokeExact(out, device), "cuDeviceGetDefaultMemPool");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** Bytes the pool keeps reserved after frees instead of returning them to the driver at each synchronization. */
    void setReleaseThreshold(MemorySegment pool, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            check((int) memPoolSetAttribute.invokeExact(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, a.allocateFrom(JAVA_LONG, bytes)),
                    "cuMemPoolSetAttribute(RELEASE_THRESHOLD)");
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    void trimPool(MemorySegment pool, long keepBytes) {
        try { check((int) memPoolTrimTo.invokeExact(pool, keepBytes), "cuMemPoolTrimTo"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** cuMemAllocAsync's status and the pointer (stream-ordered, from the device's pool). */
    int memAllocAsync(long bytes, MemorySegment stream, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int r = (int) memAllocAsync.invokeExact(p, bytes, stream);
            out[0] = p.get(JAVA_LONG, 0);
            return r;
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    void memFreeAsync(long ptr, MemorySegment stream) {
        try { check((int) memFreeAsync.invokeExact(ptr, stream), "cuMemFreeAsync"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    void memFree(long ptr) {
        try { check((int) memFree.invokeExact(ptr), "cuMemFree_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyHtoD(long dst, MemorySegment src, long bytes) {
        try { check((int) htod.invokeExact(dst, src, bytes), "cuMemcpyHtoD_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyDtoH(MemorySegment dst, long src, long bytes) {
        try { check((int) dtoh.invokeExact(dst, src, bytes), "cuMemcpyDtoH_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** Page-locked host memory (the DMA engines read and write it directly), {@code bytes} long. */
    @Override
    public MemorySegment hostAlloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) memHostAlloc.invokeExact(out, bytes, 0), "cuMemHostAlloc");
            return out.get(ADDRESS, 0).reinterpret(bytes);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void hostFree(MemorySegment p) {
        try { check((int) memFreeHost.invokeExact(p), "cuMemFreeHost"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        try { check((int) htodAsync.invokeExact(dst, src, bytes, stream), "cuMemcpyHtoDAsync_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** Waits until {@code event}'s recorded work is done. */
    @Override
    public void synchronizeEvent(MemorySegment event) {
        try { check((int) eventSynchronize.invokeExact(event), "cuEventSynchronize"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void copyDtoDAsync(long dst, long src, long bytes, MemorySegment stream) {
        try { check((int) dtodAsync.invokeExact(dst, src, bytes, stream), "cuMemcpyDtoDAsync_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void memsetAsync(long dst, byte value, long bytes, MemorySegment stream) {
        try { check((int) memsetAsync.invokeExact(dst, value, bytes, stream), "cuMemsetD8Async"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment loadModule(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) moduleLoadData.invokeExact(out, image), "cuModuleLoadData");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment function(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) moduleGetFunction.invokeExact(out, module, a.allocateFrom(name)), "cuModuleGetFunction(" + name + ")");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void unloadModule(MemorySegment module) {
        try { check((int) moduleUnload.invokeExact(module), "cuModuleUnload"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void setMaxDynamicShared(MemorySegment function, int bytes) {
        try {
            check((int) funcSetAttribute.invokeExact(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes), "cuFuncSetAttribute");
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void launch(MemorySegment f, int gx, int gy, int gz, int bx, int by, int bz, int shared, MemorySegment stream, MemorySegment params) {
        try {
            check((int) launchKernel.invokeExact(f, gx, gy, gz, bx, by, bz, shared, stream, params, MemorySegment.NULL), "cuLaunchKernel");
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment createStream() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) streamCreate.invokeExact(out, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void synchronize(MemorySegment stream) {
        try { check((int) streamSynchronize.invokeExact(stream), "cuStreamSynchronize"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        try { check((int) streamDestroy.invokeExact(stream), "cuStreamDestroy_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public MemorySegment createEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) eventCreate.invokeExact(out, 0), "cuEventCreate");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void record(MemorySegment event, MemorySegment stream) {
        try { check((int) eventRecord.invokeExact(event, stream), "cuEventRecord"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** Milliseconds between two recorded events, after waiting for the second. */
    @Override
    public float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            check((int) eventSynchronize.invokeExact(end), "cuEventSynchronize");
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            check((int) eventElapsed.invokeExact(ms, start, end), "cuEventElapsedTime");
            return ms.get(JAVA_FLOAT, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        try { check((int) eventDestroy.invokeExact(event), "cuEventDestroy_v2"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void beginCapture(MemorySegment stream) {
        try {
            check((int) beginCapture.invokeExact(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), "cuStreamBeginCapture_v2");
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    /** Ends capture and instantiates the graph; the graph template is destroyed, the executable graph returned. */
    @Override
    public MemorySegment endCaptureAndInstantiate(MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(ADDRESS), exec = a.allocate(ADDRESS);
            check((int) endCapture.invokeExact(stream, g), "cuStreamEndCapture");
            MemorySegment graph = g.get(ADDRESS, 0);
            try {
                check((int) graphInstantiate.invokeExact(exec, graph, 0L), "cuGraphInstantiateWithFlags");
            } finally {
                check((int) graphDestroy.invokeExact(graph), "cuGraphDestroy");
            }
            return exec.get(ADDRESS, 0);
        } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void launchGraph(MemorySegment exec, MemorySegment stream) {
        try { check((int) graphLaunch.invokeExact(exec, stream), "cuGraphLaunch"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }

    @Override
    public void destroyGraphExec(MemorySegment exec) {
        try { check((int) graphExecDestroy.invokeExact(exec), "cuGraphExecDestroy"); } catch (Throwable t) { throw GpuException.unchecked(t); }
    }
}
