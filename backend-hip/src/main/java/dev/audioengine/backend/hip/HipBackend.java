package dev.audioengine.backend.hip;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.OutOfDeviceMemoryException;
import dev.audioengine.api.spi.TensorPlacement;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One HIP device opened: one stream that every copy and kernel goes through, the hipRTC-compiled
 * kernels and the HIP graph cache; the structure of the CUDA backend, with HIP's device-current
 * model (hipSetDevice) in place of contexts. Options (BackendConfig):
 * {@code hip.graphs=on|off} (capture each compiled segment into a HIP graph and replay it; default on
 * for discrete GPUs, off for integrated ones, whose graph buffers come out of shared system memory),
 * {@code hip.graph_cache=N} (graphs kept, least recently used out; default 64),
 * {@code hip.kernel_cache=DIR|off} (compiled code objects; default ~/.cache/audioengine/hip),
 * {@code hip.hipblaslt=on|off} (F32/F16/BF16 matmuls through hipBLASLt; default off until a
 * `check --backend hip` run on an AMD GPU has passed with it; otherwise the engine's GEMM kernels),
 * {@code hip.vmm=on|off} (device memory from a virtual-memory pool that maps physical memory as it
 * grows and reuses freed ranges, {@link HipVmmPool}; default off, as in the C++ engines on ROCm).
 * Not thread-safe: one run at a time.
 */
final class HipBackend implements Backend {
    /** What the run's GEMMs go through, for the probe reason and the open log. */
    static String gemmPath(String hipblasltLocation, boolean on) {
        if (on) return "hipBLASLt (" + hipblasltLocation + ") for F32/F16/BF16 weights, engine kernels for the rest";
        return "engine GEMM kernels (ae_matmul, ae_matvec_q)" + (hipblasltLocation == null ? "; hipBLASLt not found"
                : "; hipBLASLt found at " + hipblasltLocation + ", used with --option hip.hipblaslt=on");
    }

    private final DeviceInfo device;
    private final int ordinal;
    private final HipApi api;
    private final MemorySegment stream;
    private final HipKernelCache kernels;
    private final GraphCache graphs; // null when graphs are off
    private final HipBlasLt hipblaslt; // null when hip.hipblaslt is off
    private final HipVmmPool vmm; // null when hip.vmm is off
    private final int maxSharedPerBlock;
    private final Set<HipBuffer> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    HipBackend(DeviceInfo device, int ordinal, HipApi api, HipRtc rtc, String rocmVersion, List<java.nio.file.Path> folders,
               java.lang.foreign.SymbolLookup runtimeSymbols, String runtimeLocation, BackendConfig config) {
        this.device = device;
        this.ordinal = ordinal;
        this.api = api;
        boolean useGraphs = onOff(config, "hip.graphs", device.kind() != DeviceKind.INTEGRATED_GPU);
        boolean useHipblaslt = onOff(config, "hip.hipblaslt", false);
        boolean useVmm = onOff(config, "hip.vmm", false);
        int graphCache = Integer.parseInt(config.option("hip.graph_cache", "64").trim());
        String cacheDir = config.option("hip.kernel_cache", "").trim();
        api.setDevice(ordinal);
        this.maxSharedPerBlock = api.attribute(ordinal, HipApi.HIP_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
        this.stream = api.createStream();
        this.kernels = new HipKernelCache(api, rtc, device.arch(), rocmVersion, cacheDir.equals("off") ? null
                : cacheDir.isEmpty() ? HipKernelCache.defaultDir() : Path.of(cacheDir));
        this.graphs = useGraphs ? new GraphCache(api::destroyGraphExec, graphCache) : null;
        HipBlasLt lt = null;
        HipVmmPool pool = null;
        try {
            if (useHipblaslt) lt = HipBlasLt.load(api, folders);
            if (useVmm) pool = new HipVmmPool(api.runtime(), runtimeSymbols, runtimeLocation, ordinal, device.memoryTotal());
        } catch (RuntimeException | Error e) {
            if (lt != null) lt.close();
            kernels.close();
            api.destroyStream(stream);
            throw e;
        }
        this.hipblaslt = lt;
        this.vmm = pool;
        System.getLogger("dev.audioengine.backend.hip").log(System.Logger.Level.INFO, "ROCm device " + ordinal + " (" + device.name()
                + ", " + device.arch() + "): graphs " + (useGraphs ? "on" : "off") + ", memory: " + (useVmm ? "VMM pool" : "hipMalloc")
                + ", GEMM: "
                + gemmPath(lt == null ? HipBlasLt.find(folders) : lt.location(), lt != null));
    }

    static boolean onOff(BackendConfig config, String key, boolean fallback) {
        String v = config.option(key, fallback ? "on" : "off").trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "on", "true", "1" -> true;
            case "off", "false", "0" -> false;
            default -> throw new IllegalArgumentException(key + " must be on or off, got '" + v + "'");
        };
    }

    @Override public String registryName() { return "ROCm"; }

    @Override public DeviceInfo device() { return device; }

    @Override public Set<Capability> verifiedCapabilities() { return HipBackendProvider.VERIFIED; }

    @Override public boolean supportsOp(Tensor node) { return HipOps.supports(node); }

    HipApi api() { return api; }

    HipKernelCache kernels() { return kernels; }

    /** hipBLASLt, or null when hip.hipblaslt is off. */
    HipBlasLt hipblaslt() { return hipblaslt; }

    int maxSharedPerBlock() { return maxSharedPerBlock; }

    GraphCache graphCache() { return graphs; }

    MemorySegment stream() { return stream; }

    private void enter() {
        if (closed) throw new IllegalStateException("ROCm backend is closed");
        api.setDevice(ordinal);
    }

    @Override
    public synchronized DeviceBuffer allocate(long bytes) {
        enter();
        return alloc(bytes);
    }

    HipBuffer allocateScratch(long bytes) { return alloc(bytes); }

    private synchronized HipBuffer alloc(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative allocation: " + bytes);
        long address;
        if (vmm != null) {
            address = vmm.allocate(bytes);
            if (address < 0) throw new OutOfDeviceMemoryException(device.name() + " (ROCm device " + ordinal + ", VMM pool)", bytes, api.memInfo()[0]);
        } else {
            long[] out = new long[1];
            int r = api.malloc(Math.max(bytes, 1), out);
            if (r == HipApi.HIP_ERROR_OUT_OF_MEMORY) {
                throw new OutOfDeviceMemoryException(device.name() + " (ROCm device " + ordinal + ")", bytes, api.memInfo()[0]);
            }
            api.runtime().check(r, "hipMalloc(" + bytes + " bytes)");
            address = out[0];
        }
        HipBuffer b = new HipBuffer(address, bytes, this::free);
        live.add(b);
        return b;
    }

    private synchronized void free(HipBuffer b) {
        if (!live.remove(b) || closed) return;
        api.setDevice(ordinal);
        api.synchronize(stream); // a kernel still in flight may read it
        if (vmm != null) vmm.free(b.rawAddress());
        else api.free(b.rawAddress());
    }

    static HipBuffer hip(DeviceBuffer b) {
        if (b instanceof HipBuffer h) return h;
        throw new IllegalArgumentException("not a ROCm buffer: " + b);
    }

    private static void checkRange(HipBuffer b, long offset, long bytes, String what) {
        if (offset < 0 || bytes < 0 || offset + bytes > b.byteSize()) {
            throw new IndexOutOfBoundsException(what + " of " + bytes + " bytes at offset " + offset + " outside " + b);
        }
    }

    @Override
    public synchronized void upload(DeviceBuffer dst, long dstOffset, MemorySegment src) {
        enter();
        HipBuffer b = hip(dst);
        checkRange(b, dstOffset, src.byteSize(), "upload");
        api.synchronize(stream);
        if (src.byteSize() > 0) api.copyHtoD(b.address() + dstOffset, src, src.byteSize());
    }

    @Override
    public synchronized void download(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        enter();
        HipBuffer b = hip(src);
        checkRange(b, srcOffset, dst.byteSize(), "download");
        api.synchronize(stream);
        if (dst.byteSize() > 0) api.copyDtoH(dst, b.address() + srcOffset, dst.byteSize());
    }

    @Override
    public synchronized Executable compile(List<Tensor> nodes, TensorPlacement placement) {
        enter();
        Arena arena = Arena.ofShared();
        Binding b = new Binding(this, placement, arena);
        try {
            for (Tensor n : nodes) HipOps.bind(n, b);
        } catch (RuntimeException | Error e) {
            for (HipBuffer s : b.scratchBuffers()) s.close();
            arena.close();
            throw e;
        }
        return new HipExecutable(this, b.steps(), arena, b.scratchBuffers());
    }

    /** Enqueues a segment's steps: replaying its captured graph, capturing it first, or launch by launch. */
    synchronized void execute(Object owner, List<Step> steps) {
        enter();
        if (graphs == null || steps.isEmpty()) {
            for (Step s : steps) s.enqueue(stream);
            return;
        }
        MemorySegment g = graphs.get(owner);
        if (g == null) {
            api.beginCapture(stream);
            try {
                for (Step s : steps) s.enqueue(stream);
            } catch (RuntimeException | Error e) {
                try {
                    api.destroyGraphExec(api.endCaptureAndInstantiate(stream));
                } catch (RuntimeException ignored) {
                    // the capture was already invalidated by the failing call; the original error is what matters
                }
                throw e;
            }
            g = api.endCaptureAndInstantiate(stream);
            graphs.put(owner, g);
        }
        api.launchGraph(g, stream);
    }

    synchronized void forgetGraph(Object owner) {
        if (graphs != null && !closed) {
            api.setDevice(ordinal);
            graphs.remove(owner);
        }
    }

    /** Waits for everything enqueued so far. */
    synchronized void synchronize() {
        enter();
        api.synchronize(stream);
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        api.setDevice(ordinal);
        try {
            api.synchronize(stream);
            if (graphs != null) graphs.clear();
            if (hipblaslt != null) hipblaslt.close();
            kernels.close();
            if (vmm == null) for (HipBuffer b : List.copyOf(live)) api.free(b.rawAddress());
            live.clear();
            if (vmm != null) vmm.close();
            api.destroyStream(stream);
        } finally {
            closed = true;
        }
    }
}
