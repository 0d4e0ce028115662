package dev.audioengine.backend.hip;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The HIP runtime entry points an open backend uses (hip_runtime_api.h), one for one with the CUDA
 * backend's DriverApi: memory and copies, modules and launches, streams, events and stream capture
 * into graphs. HIP has no explicit contexts: a device is made current with hipSetDevice. Handles
 * (hipModule_t, hipFunction_t, hipStream_t, hipEvent_t, hipGraph_t, hipGraphExec_t) are pointers,
 * device pointers are passed as 64-bit integers. Every call is checked through {@link HipRuntime#check}.
 */
final class HipApi {
    static final int HIP_STREAM_NON_BLOCKING = 1;
    /** hipStreamCaptureMode: Global 0, ThreadLocal 1, Relaxed 2 (as CUDA's). */
    static final int HIP_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
    /** hipErrorOutOfMemory (hipErrorMemoryAllocation), the same value as cudaErrorMemoryAllocation. */
    static final int HIP_ERROR_OUT_OF_MEMORY = 2;
    /** hipDeviceAttribute_t value, the same in ROCm 5.2 to 7 (ROCm 6 renamed unsupported ones Unused1..5 in place). */
    static final int HIP_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 74;

    private final HipRuntime runtime;
    private final MethodHandle setDevice, memGetInfo, malloc, free, htod, dtoh, dtodAsync, memsetAsync;
    private final MethodHandle moduleLoadData, moduleGetFunction, moduleUnload, launchKernel;
    private final MethodHandle streamCreate, streamSynchronize, streamDestroy;
    private final MethodHandle eventCreate, eventRecord, eventSynchronize, eventElapsed, eventDestroy;
    private final MethodHandle beginCapture, endCapture, graphInstantiate, graphLaunch, graphExecDestroy, graphDestroy;
    private final MethodHandle deviceGetAttribute;

    HipApi(HipRuntime runtime, SymbolLookup lib, String name) {
        this.runtime = runtime;
        setDevice = bind(lib, name, "hipSetDevice", JAVA_INT);
        memGetInfo = bind(lib, name, "hipMemGetInfo", ADDRESS, ADDRESS);
        malloc = bind(lib, name, "hipMalloc", ADDRESS, JAVA_LONG);
        free = bind(lib, name, "hipFree", JAVA_LONG);
        htod = bind(lib, name, "hipMemcpyHtoD", JAVA_LONG, ADDRESS, JAVA_LONG);
        dtoh = bind(lib, name, "hipMemcpyDtoH", ADDRESS, JAVA_LONG, JAVA_LONG);
        dtodAsync = bind(lib, name, "hipMemcpyDtoDAsync", JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS);
        memsetAsync = bind(lib, name, "hipMemsetD8Async", JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS);
        moduleLoadData = bind(lib, name, "hipModuleLoadData", ADDRESS, ADDRESS);
        moduleGetFunction = bind(lib, name, "hipModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
        moduleUnload = bind(lib, name, "hipModuleUnload", ADDRESS);
        launchKernel = bind(lib, name, "hipModuleLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        streamCreate = bind(lib, name, "hipStreamCreateWithFlags", ADDRESS, JAVA_INT);
        streamSynchronize = bind(lib, name, "hipStreamSynchronize", ADDRESS);
        streamDestroy = bind(lib, name, "hipStreamDestroy", ADDRESS);
        eventCreate = bind(lib, name, "hipEventCreate", ADDRESS);
        eventRecord = bind(lib, name, "hipEventRecord", ADDRESS, ADDRESS);
        eventSynchronize = bind(lib, name, "hipEventSynchronize", ADDRESS);
        eventElapsed = bind(lib, name, "hipEventElapsedTime", ADDRESS, ADDRESS, ADDRESS);
        eventDestroy = bind(lib, name, "hipEventDestroy", ADDRESS);
        beginCapture = bind(lib, name, "hipStreamBeginCapture", ADDRESS, JAVA_INT);
        endCapture = bind(lib, name, "hipStreamEndCapture", ADDRESS, ADDRESS);
        graphInstantiate = bind(lib, name, "hipGraphInstantiateWithFlags", ADDRESS, ADDRESS, JAVA_LONG);
        graphLaunch = bind(lib, name, "hipGraphLaunch", ADDRESS, ADDRESS);
        graphExecDestroy = bind(lib, name, "hipGraphExecDestroy", ADDRESS);
        graphDestroy = bind(lib, name, "hipGraphDestroy", ADDRESS);
        deviceGetAttribute = bind(lib, name, "hipDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
    }

    /** Every entry point above, for the test that binds them against the installed runtime. */
    static final String[] ENTRY_POINTS = {"hipSetDevice", "hipMemGetInfo", "hipMalloc", "hipFree", "hipMemcpyHtoD", "hipMemcpyDtoH",
            "hipMemcpyDtoDAsync", "hipMemsetD8Async", "hipModuleLoadData", "hipModuleGetFunction", "hipModuleUnload",
            "hipModuleLaunchKernel", "hipStreamCreateWithFlags", "hipStreamSynchronize", "hipStreamDestroy", "hipEventCreate",
            "hipEventRecord", "hipEventSynchronize", "hipEventElapsedTime", "hipEventDestroy", "hipStreamBeginCapture",
            "hipStreamEndCapture", "hipGraphInstantiateWithFlags", "hipGraphLaunch", "hipGraphExecDestroy", "hipGraphDestroy",
            "hipDeviceGetAttribute"};

    private static MethodHandle bind(SymbolLookup lib, String libraryName, String name, MemoryLayout... args) {
        MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalStateException(libraryName + " does not export " + name
                + "; the ROCm runtime is older than 5.2 or not libamdhip64"));
        return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, args));
    }

    HipRuntime runtime() { return runtime; }

    private void check(int r, String call) { runtime.check(r, call); }

    void setDevice(int device) {
        try { check((int) setDevice.invokeExact(device), "hipSetDevice(" + device + ")"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    int attribute(int device, int attribute) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            check((int) deviceGetAttribute.invokeExact(out, attribute, device), "hipDeviceGetAttribute(" + attribute + ")");
            return out.get(JAVA_INT, 0);
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    /** {free, total} bytes of the current device. */
    long[] memInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG), total = a.allocate(JAVA_LONG);
            check((int) memGetInfo.invokeExact(free, total), "hipMemGetInfo");
            return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    /** hipMalloc's status and the pointer: the caller turns out-of-memory into its own exception. */
    int malloc(long bytes, long[] out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int r = (int) malloc.invokeExact(p, bytes);
            out[0] = p.get(JAVA_LONG, 0);
            return r;
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void free(long ptr) {
        try { check((int) free.invokeExact(ptr), "hipFree"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void copyHtoD(long dst, MemorySegment src, long bytes) {
        try { check((int) htod.invokeExact(dst, src, bytes), "hipMemcpyHtoD"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void copyDtoH(MemorySegment dst, long src, long bytes) {
        try { check((int) dtoh.invokeExact(dst, src, bytes), "hipMemcpyDtoH"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void copyDtoDAsync(long dst, long src, long bytes, MemorySegment stream) {
        try { check((int) dtodAsync.invokeExact(dst, src, bytes, stream), "hipMemcpyDtoDAsync"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void memsetAsync(long dst, byte value, long bytes, MemorySegment stream) {
        try { check((int) memsetAsync.invokeExact(dst, value, bytes, stream), "hipMemsetD8Async"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    /** Loads a code object from memory (hipRTC's output). */
    MemorySegment loadModule(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) moduleLoadData.invokeExact(out, image), "hipModuleLoadData");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    MemorySegment function(MemorySegment module, String kernel) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) moduleGetFunction.invokeExact(out, module, a.allocateFrom(kernel)), "hipModuleGetFunction(" + kernel + ")");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void unloadModule(MemorySegment module) {
        try { check((int) moduleUnload.invokeExact(module), "hipModuleUnload"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void launch(MemorySegment f, int gx, int gy, int gz, int bx, int by, int bz, int shared, MemorySegment stream, MemorySegment params) {
        try {
            check((int) launchKernel.invokeExact(f, gx, gy, gz, bx, by, bz, shared, stream, params, MemorySegment.NULL), "hipModuleLaunchKernel");
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    MemorySegment createStream() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) streamCreate.invokeExact(out, HIP_STREAM_NON_BLOCKING), "hipStreamCreateWithFlags");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void synchronize(MemorySegment stream) {
        try { check((int) streamSynchronize.invokeExact(stream), "hipStreamSynchronize"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void destroyStream(MemorySegment stream) {
        try { check((int) streamDestroy.invokeExact(stream), "hipStreamDestroy"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    MemorySegment createEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) eventCreate.invokeExact(out), "hipEventCreate");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void record(MemorySegment event, MemorySegment stream) {
        try { check((int) eventRecord.invokeExact(event, stream), "hipEventRecord"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    /** Milliseconds between two recorded events, after waiting for the second. */
    float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            check((int) eventSynchronize.invokeExact(end), "hipEventSynchronize");
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            check((int) eventElapsed.invokeExact(ms, start, end), "hipEventElapsedTime");
            return ms.get(JAVA_FLOAT, 0);
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void destroyEvent(MemorySegment event) {
        try { check((int) eventDestroy.invokeExact(event), "hipEventDestroy"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void beginCapture(MemorySegment stream) {
        try {
            check((int) beginCapture.invokeExact(stream, HIP_STREAM_CAPTURE_MODE_THREAD_LOCAL), "hipStreamBeginCapture");
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    /** Ends capture and instantiates the graph; the graph template is destroyed, the executable graph returned. */
    MemorySegment endCaptureAndInstantiate(MemorySegment stream) {
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
        } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void launchGraph(MemorySegment exec, MemorySegment stream) {
        try { check((int) graphLaunch.invokeExact(exec, stream), "hipGraphLaunch"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }

    void destroyGraphExec(MemorySegment exec) {
        try { check((int) graphExecDestroy.invokeExact(exec), "hipGraphExecDestroy"); } catch (Throwable t) { throw HipRuntime.rethrow(t); }
    }
}
