package dev.audioengine.gpu.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The part of the runtime table the CUDA driver API and HIP spell alike (HIP mirrors cuMemcpyHtoD,
 * cuModuleLaunchKernel, cuStreamBeginCapture ... call for call, arguments and enum values included;
 * ggml maps one onto the other with macros): copies, page-locked memory, modules and launches,
 * streams, events and stream capture, bound by the names the vendor gives. The vendor subclass adds
 * what differs: making the device current, device memory, shared-memory opt-in, release.
 * Error messages name the entry point as bound.
 */
public abstract class MirroredRuntime implements GpuRuntime {
    /** CU_STREAM_NON_BLOCKING / hipStreamNonBlocking. */
    static final int STREAM_NON_BLOCKING = 1;
    /** CU_STREAM_CAPTURE_MODE_THREAD_LOCAL / hipStreamCaptureModeThreadLocal. */
    static final int CAPTURE_MODE_THREAD_LOCAL = 1;

    /** The vendor's name of each entry point (the versioned one where the vendor has one, e.g. cuMemcpyHtoD_v2). */
    public record Names(
            String memGetInfo,
            String copyHtoD,
            String copyDtoH,
            String copyHtoDAsync,
            String copyDtoDAsync,
            String memsetD8Async,
            String hostAlloc,
            String hostFree,
            String moduleLoadData,
            String moduleGetFunction,
            String moduleUnload,
            String launchKernel,
            String streamCreate,
            String streamSynchronize,
            String streamDestroy,
            String eventCreate,
            String eventRecord,
            String eventSynchronize,
            String eventElapsedTime,
            String eventDestroy,
            String beginCapture,
            String endCapture,
            String graphInstantiate,
            String graphLaunch,
            String graphExecDestroy,
            String graphDestroy) {
        public List<String> all() {
            return List.of(
                    memGetInfo,
                    copyHtoD,
                    copyDtoH,
                    copyHtoDAsync,
                    copyDtoDAsync,
                    memsetD8Async,
                    hostAlloc,
                    hostFree,
                    moduleLoadData,
                    moduleGetFunction,
                    moduleUnload,
                    launchKernel,
                    streamCreate,
                    streamSynchronize,
                    streamDestroy,
                    eventCreate,
                    eventRecord,
                    eventSynchronize,
                    eventElapsedTime,
                    eventDestroy,
                    beginCapture,
                    endCapture,
                    graphInstantiate,
                    graphLaunch,
                    graphExecDestroy,
                    graphDestroy);
        }
    }

    private final Names n;
    private final IntFunction<String> errorName;
    private final MethodHandle memGetInfo, htod, dtoh, htodAsync, dtodAsync, memsetAsync, hostAlloc, hostFree;
    private final MethodHandle moduleLoadData, moduleGetFunction, moduleUnload, launchKernel;
    private final MethodHandle streamCreate, streamSynchronize, streamDestroy;
    private final MethodHandle eventCreate, eventRecord, eventSynchronize, eventElapsed, eventDestroy;
    private final MethodHandle beginCapture, endCapture, graphInstantiate, graphLaunch, graphExecDestroy, graphDestroy;

    /** Binds every entry point; {@code bind} throws IllegalStateException naming a missing one. */
    protected MirroredRuntime(Names names, NativeBinder bind, IntFunction<String> errorName) {
        this.n = names;
        this.errorName = errorName;
        memGetInfo = bind.bind(n.memGetInfo(), ADDRESS, ADDRESS);
        htod = bind.bind(n.copyHtoD(), JAVA_LONG, ADDRESS, JAVA_LONG);
        dtoh = bind.bind(n.copyDtoH(), ADDRESS, JAVA_LONG, JAVA_LONG);
        htodAsync = bind.bind(n.copyHtoDAsync(), JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
        dtodAsync = bind.bind(n.copyDtoDAsync(), JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS);
        memsetAsync = bind.bind(n.memsetD8Async(), JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS);
        hostAlloc = bind.bind(n.hostAlloc(), ADDRESS, JAVA_LONG, JAVA_INT);
        hostFree = bind.bind(n.hostFree(), ADDRESS);
        moduleLoadData = bind.bind(n.moduleLoadData(), ADDRESS, ADDRESS);
        moduleGetFunction = bind.bind(n.moduleGetFunction(), ADDRESS, ADDRESS, ADDRESS);
        moduleUnload = bind.bind(n.moduleUnload(), ADDRESS);
        launchKernel = bind.bind(
                n.launchKernel(),
                ADDRESS,
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                ADDRESS,
                ADDRESS,
                ADDRESS);
        streamCreate = bind.bind(n.streamCreate(), ADDRESS, JAVA_INT);
        streamSynchronize = bind.bind(n.streamSynchronize(), ADDRESS);
        streamDestroy = bind.bind(n.streamDestroy(), ADDRESS);
        eventCreate = bind.bind(n.eventCreate(), ADDRESS, JAVA_INT);
        eventRecord = bind.bind(n.eventRecord(), ADDRESS, ADDRESS);
        eventSynchronize = bind.bind(n.eventSynchronize(), ADDRESS);
        eventElapsed = bind.bind(n.eventElapsedTime(), ADDRESS, ADDRESS, ADDRESS);
        eventDestroy = bind.bind(n.eventDestroy(), ADDRESS);
        beginCapture = bind.bind(n.beginCapture(), ADDRESS, JAVA_INT);
        endCapture = bind.bind(n.endCapture(), ADDRESS, ADDRESS);
        graphInstantiate = bind.bind(n.graphInstantiate(), ADDRESS, ADDRESS, JAVA_LONG);
        graphLaunch = bind.bind(n.graphLaunch(), ADDRESS, ADDRESS);
        graphExecDestroy = bind.bind(n.graphExecDestroy(), ADDRESS);
        graphDestroy = bind.bind(n.graphDestroy(), ADDRESS);
    }

    /** Throws {@link GpuException} named by the vendor's error name when {@code status} is not success. */
    protected final void check(int status, String call) {
        GpuException.check(status, call, errorName);
    }

    @Override
    public long[] memInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG), total = a.allocate(JAVA_LONG);
            check((int) memGetInfo.invokeExact(free, total), n.memGetInfo());
            return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void copyHtoD(long dst, MemorySegment src, long bytes) {
        try {
            check((int) htod.invokeExact(dst, src, bytes), n.copyHtoD());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void copyDtoH(MemorySegment dst, long src, long bytes) {
        try {
            check((int) dtoh.invokeExact(dst, src, bytes), n.copyDtoH());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void copyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        try {
            check((int) htodAsync.invokeExact(dst, src, bytes, stream), n.copyHtoDAsync());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void copyDtoDAsync(long dst, long src, long bytes, MemorySegment stream) {
        try {
            check((int) dtodAsync.invokeExact(dst, src, bytes, stream), n.copyDtoDAsync());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void memsetAsync(long dst, byte value, long bytes, MemorySegment stream) {
        try {
            check((int) memsetAsync.invokeExact(dst, value, bytes, stream), n.memsetD8Async());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** The pointer the vendor wrote, as a segment of {@code bytes}: reinterpreting is restricted, so the vendor module does it. */
    protected abstract MemorySegment sized(MemorySegment pointer, long bytes);

    @Override
    public MemorySegment hostAlloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) hostAlloc.invokeExact(out, bytes, 0), n.hostAlloc());
            return sized(out.get(ADDRESS, 0), bytes);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void hostFree(MemorySegment memory) {
        try {
            check((int) hostFree.invokeExact(memory), n.hostFree());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public MemorySegment loadModule(MemorySegment image) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) moduleLoadData.invokeExact(out, image), n.moduleLoadData());
            return out.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public MemorySegment function(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check(
                    (int) moduleGetFunction.invokeExact(out, module, a.allocateFrom(name)),
                    n.moduleGetFunction() + "(" + name + ")");
            return out.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void unloadModule(MemorySegment module) {
        try {
            check((int) moduleUnload.invokeExact(module), n.moduleUnload());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void launch(
            MemorySegment f,
            int gx,
            int gy,
            int gz,
            int bx,
            int by,
            int bz,
            int shared,
            MemorySegment stream,
            MemorySegment params) {
        try {
            check(
                    (int) launchKernel.invokeExact(
                            f, gx, gy, gz, bx, by, bz, shared, stream, params, MemorySegment.NULL),
                    n.launchKernel());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public MemorySegment createStream() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) streamCreate.invokeExact(out, STREAM_NON_BLOCKING), n.streamCreate());
            return out.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void synchronize(MemorySegment stream) {
        try {
            check((int) streamSynchronize.invokeExact(stream), n.streamSynchronize());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        try {
            check((int) streamDestroy.invokeExact(stream), n.streamDestroy());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public MemorySegment createEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) eventCreate.invokeExact(out, 0), n.eventCreate());
            return out.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void record(MemorySegment event, MemorySegment stream) {
        try {
            check((int) eventRecord.invokeExact(event, stream), n.eventRecord());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void synchronizeEvent(MemorySegment event) {
        try {
            check((int) eventSynchronize.invokeExact(event), n.eventSynchronize());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            check((int) eventSynchronize.invokeExact(end), n.eventSynchronize());
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            check((int) eventElapsed.invokeExact(ms, start, end), n.eventElapsedTime());
            return ms.get(JAVA_FLOAT, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        try {
            check((int) eventDestroy.invokeExact(event), n.eventDestroy());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void beginCapture(MemorySegment stream) {
        try {
            check((int) beginCapture.invokeExact(stream, CAPTURE_MODE_THREAD_LOCAL), n.beginCapture());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public MemorySegment endCaptureAndInstantiate(MemorySegment stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(ADDRESS), exec = a.allocate(ADDRESS);
            check((int) endCapture.invokeExact(stream, g), n.endCapture());
            MemorySegment graph = g.get(ADDRESS, 0);
            try {
                check((int) graphInstantiate.invokeExact(exec, graph, 0L), n.graphInstantiate());
            } finally {
                check((int) graphDestroy.invokeExact(graph), n.graphDestroy());
            }
            return exec.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void launchGraph(MemorySegment exec, MemorySegment stream) {
        try {
            check((int) graphLaunch.invokeExact(exec, stream), n.graphLaunch());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    @Override
    public void destroyGraphExec(MemorySegment exec) {
        try {
            check((int) graphExecDestroy.invokeExact(exec), n.graphExecDestroy());
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }
}
