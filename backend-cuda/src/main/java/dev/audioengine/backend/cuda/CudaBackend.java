package dev.audioengine.backend.cuda;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
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
 * One CUDA device opened: its primary context, one stream that every copy and kernel goes
 * through, the NVRTC-compiled kernels, cuBLASLt and the CUDA graph cache. Options (BackendConfig):
 * {@code cuda.graphs=on|off} (capture each compiled segment into a CUDA graph and replay it; default
 * on), {@code cuda.graph_cache=N} (graphs kept, least recently used out; default 64),
 * {@code cuda.tf32=on|off} (F32 GEMM on TF32 tensor cores; default off), {@code cuda.matmul=precise|fast}
 * (F16/BF16 weights: activations split in two rounded parts, two GEMMs, or rounded once; default precise),
 * {@code cuda.kernel_cache=DIR|off}
 * (compiled kernel cache; default ~/.cache/audioengine/cuda). Not thread-safe: one run at a time.
 */
final class CudaBackend implements Backend {
    /** Freed device memory the pool keeps cached for the next allocation. */
    static final long POOL_KEEP_BYTES = 1L << 30;

    private final DeviceInfo device;
    private final int ordinal;
    private final DriverApi api;
    private final MemorySegment context;
    private final MemorySegment stream;
    private final MemorySegment pool;
    private final KernelCache kernels;
    private final CublasLt cublas;
    private final GraphCache graphs; // null when graphs are off
    private final PinnedStaging staging; // uploads; null when cuda.pinned=off
    private final boolean tf32;
    private final boolean fastMatmul;
    private final Set<CudaBuffer> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    /** Each of the two page-locked transfer halves; large copies stream through them. */
    static final long PINNED_HALF_BYTES = 8L << 20;

    CudaBackend(DeviceInfo device, int ordinal, DriverApi api, BackendConfig config) {
        this.device = device;
        this.ordinal = ordinal;
        this.api = api;
        this.tf32 = onOff(config, "cuda.tf32", false);
        String mm = config.option("cuda.matmul", "precise").trim().toLowerCase(Locale.ROOT);
        if (!mm.equals("precise") && !mm.equals("fast")) throw new IllegalArgumentException("cuda.matmul must be precise or fast, got '" + mm + "'");
        this.fastMatmul = mm.equals("fast");
        boolean useGraphs = onOff(config, "cuda.graphs", true);
        int graphCache = Integer.parseInt(config.option("cuda.graph_cache", "64").trim());
        String cacheDir = config.option("cuda.kernel_cache", "").trim();
        this.context = api.retainPrimaryContext(ordinal);
        boolean pinned = onOff(config, "cuda.pinned", true);
        KernelCache k = null;
        CublasLt lt = null;
        MemorySegment s = null;
        PinnedStaging st = null;
        try {
            api.setCurrent(context);
            s = api.createStream();
            if (pinned) st = new PinnedStaging(api, PINNED_HALF_BYTES);
            Nvrtc nvrtc = Nvrtc.load();
            k = new KernelCache(api, nvrtc, device.arch(), cacheDir.equals("off") ? null
                    : cacheDir.isEmpty() ? KernelCache.defaultDir() : Path.of(cacheDir));
            lt = CublasLt.load(api);
        } catch (RuntimeException | Error e) {
            if (lt != null) lt.close();
            if (k != null) k.close();
            if (st != null) st.close();
            if (s != null) api.destroyStream(s);
            api.releasePrimaryContext(ordinal);
            throw e;
        }
        this.stream = s;
        this.staging = st;
        // Device memory comes from the stream-ordered pool, which keeps freed blocks for reuse (a caching
        // allocator) up to the threshold; close() trims what is unused back to the driver.
        this.pool = api.defaultPool(ordinal);
        api.setReleaseThreshold(pool, POOL_KEEP_BYTES);
        this.kernels = k;
        this.cublas = lt;
        this.graphs = useGraphs ? new GraphCache(api::destroyGraphExec, graphCache) : null;
    }

    private static boolean onOff(BackendConfig config, String key, boolean fallback) {
        String v = config.option(key, fallback ? "on" : "off").trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "on", "true", "1" -> true;
            case "off", "false", "0" -> false;
            default -> throw new IllegalArgumentException(key + " must be on or off, got '" + v + "'");
        };
    }

    @Override public String registryName() { return "CUDA"; }

    @Override public DeviceInfo device() { return device; }

    @Override public Set<Capability> verifiedCapabilities() { return CudaBackendProvider.VERIFIED; }

    @Override public boolean supportsOp(Tensor node) { return CudaOps.supports(node); }

    DriverApi api() { return api; }

    KernelCache kernels() { return kernels; }

    CublasLt cublas() { return cublas; }

    boolean tf32() { return tf32; }

    boolean fastMatmul() { return fastMatmul; }

    GraphCache graphCache() { return graphs; }

    MemorySegment stream() { return stream; }

    private void enter() {
        if (closed) throw new IllegalStateException("CUDA backend is closed");
        api.setCurrent(context);
    }

    @Override
    public synchronized DeviceBuffer allocate(long bytes) {
        enter();
        return alloc(bytes);
    }

    CudaBuffer allocateScratch(long bytes) { return alloc(bytes); }

    private synchronized CudaBuffer alloc(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative allocation: " + bytes);
        long[] out = new long[1];
        int r = api.memAllocAsync(Math.max(bytes, 1), stream, out);
        if (r == DriverApi.CUDA_ERROR_OUT_OF_MEMORY) {
            api.synchronize(stream);
            api.trimPool(pool, 0);
            throw new OutOfDeviceMemoryException(device.name() + " (CUDA device " + ordinal + ")", bytes, api.memInfo()[0]);
        }
        api.driver().check(r, "cuMemAllocAsync(" + bytes + " bytes)");
        CudaBuffer b = new CudaBuffer(out[0], bytes, this::free);
        live.add(b);
        return b;
    }

    private synchronized void free(CudaBuffer b) {
        if (!live.remove(b) || closed) return;
        api.setCurrent(context);
        api.memFreeAsync(b.rawAddress(), stream); // after the work already enqueued that may read it
    }

    static CudaBuffer cuda(DeviceBuffer b) {
        if (b instanceof CudaBuffer c) return c;
        throw new IllegalArgumentException("not a CUDA buffer: " + b);
    }

    private static void checkRange(CudaBuffer b, long offset, long bytes, String what) {
        if (offset < 0 || bytes < 0 || offset + bytes > b.byteSize()) {
            throw new IndexOutOfBoundsException(what + " of " + bytes + " bytes at offset " + offset + " outside " + b);
        }
    }

    @Override
    public synchronized void upload(DeviceBuffer dst, long dstOffset, MemorySegment src) {
        enter();
        CudaBuffer b = cuda(dst);
        checkRange(b, dstOffset, src.byteSize(), "upload");
        api.synchronize(stream);
        if (staging != null && src.byteSize() >= PinnedStaging.MIN_BYTES) staging.upload(b.address() + dstOffset, src, stream);
        else if (src.byteSize() > 0) api.copyHtoD(b.address() + dstOffset, src, src.byteSize());
    }

    @Override
    public synchronized void download(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        enter();
        CudaBuffer b = cuda(src);
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
            for (Tensor n : nodes) CudaOps.bind(n, b);
        } catch (RuntimeException | Error e) {
            for (CudaBuffer s : b.scratchBuffers()) s.close();
            arena.close();
            throw e;
        }
        return new CudaExecutable(this, b.steps(), arena, b.scratchBuffers());
    }

    /** Waits for everything enqueued so far. */
    @Override
    public synchronized void synchronize() {
        enter();
        api.synchronize(stream);
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
            api.setCurrent(context);
            graphs.remove(owner);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        api.setCurrent(context);
        try {
            api.synchronize(stream);
            if (graphs != null) graphs.clear();
            cublas.close();
            kernels.close();
            if (staging != null) staging.close();
            for (CudaBuffer b : List.copyOf(live)) api.memFreeAsync(b.rawAddress(), stream);
            live.clear();
            api.synchronize(stream);
            api.trimPool(pool, 0);
            api.destroyStream(stream);
        } finally {
            closed = true;
            api.releasePrimaryContext(ordinal);
        }
    }
}
