package dev.audioengine.gpu;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.InvalidOptionValueException;
import dev.audioengine.api.spi.OutOfDeviceMemoryException;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.gpu.compile.GpuKernelCompiler;
import dev.audioengine.gpu.compile.KernelCache;
import dev.audioengine.gpu.exec.GraphCache;
import dev.audioengine.gpu.exec.Step;
import dev.audioengine.gpu.exec.StepProfile;
import dev.audioengine.gpu.gemm.GemmChoice;
import dev.audioengine.gpu.gemm.GpuBlas;
import dev.audioengine.gpu.ops.BindContext;
import dev.audioengine.gpu.ops.Binding;
import dev.audioengine.gpu.ops.DeviceLimits;
import dev.audioengine.gpu.ops.GpuOps;
import dev.audioengine.gpu.runtime.GpuBuffer;
import dev.audioengine.gpu.runtime.GpuRuntime;
import dev.audioengine.gpu.runtime.PinnedStaging;
import dev.audioengine.gpu.runtime.VmmPool;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One GPU opened through its vendor's tables: one stream that every copy and kernel goes through,
 * the runtime-compiled kernels, the GEMM library (or the engine's own GEMM kernels) and the graph
 * cache. Options (BackendConfig), each under the vendor's prefix P ({@code cuda}, {@code hip}):
 * {@code P.graphs=on|off} (capture each compiled segment into a graph and replay it; the default is
 * the vendor's), {@code P.graph_cache=N} (graphs kept, least recently used out; default 64),
 * {@code P.tf32=on|off} (F32 GEMM on TF32 units; default off), {@code P.matmul=precise|fast}
 * (F16/BF16 weights: activations split in two rounded parts, two GEMMs, or rounded once; default precise),
 * {@code P.kernel_cache=DIR|off} (compiled kernel cache; default ~/.cache/audioengine/P),
 * {@code P.prebuilt_kernels=on|off} (load the kernels the backend ships compiled ahead of time when they match the
 * sources; off compiles them at run time, for comparing; default on),
 * {@code P.matvec_max_rows=N} (0-64: up to N rows of x, quantized weight constants take the mat-vec kernel, past
 * it the GEMM library on an F32 copy kept on the device, where the vendor verified FAST_PROJECTION; default 4),
 * {@code P.half_matvec_rows=N} (0-64: up to N rows of x, F16 and BF16 weights take a mat-vec kernel, one launch
 * with the activations as they are, instead of the library's narrowing kernel and GEMMs; default 0, off: on an H100
 * it passed the matmul check and gave Whisper tiny no speed, CUDA graphs making the library's three launches cheap),
 * {@code P.pinned=on|off} (uploads through page-locked buffers; default on), {@code P.vmm=on|off} (device
 * memory from one reserved address range grown by mapping physical chunks, {@link VmmPool}, instead of
 * the vendor's stream-ordered pool; default off), {@code P.profile=on|off} (time every step apart, graphs
 * off, and print the time per op and kernel to standard error when the backend closes; default off).
 * Not thread-safe: one run at a time.
 */
public final class GpuBackend implements Backend {
    private static final System.Logger LOG = System.getLogger("dev.audioengine.gpu");

    /** Each of the two page-locked transfer halves; large copies stream through them. */
    static final long PINNED_HALF_BYTES = 8L << 20;

    private final GpuVendor vendor;
    private final DeviceInfo device;
    private final int ordinal;
    private final GpuRuntime api;
    private final MemorySegment stream;
    private final KernelCache kernels;
    private final GpuBlas blas; // null: the engine's own GEMM kernels
    private final String gemm;
    private final GraphCache graphs; // null when graphs are off
    private final StepProfile profile; // null unless P.profile=on
    private final PinnedStaging staging; // uploads; null when P.pinned=off
    private final VmmPool vmm; // null: the vendor's allocator (P.vmm=off)
    private final boolean tf32;
    private final boolean fastMatmul;
    private final DeviceLimits limits;
    /** What the op families bind against: this device's runtime, kernels, GEMM path and scratch memory. */
    private final BindContext context;

    private final Set<GpuBuffer> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    /**
     * Opens the device {@code runtime} drives (its context already made, released by {@link #close()}
     * or here when opening fails). {@code compiler} loads the kernel compiler and {@code gemmChoice} picks the
     * GEMM path; either throws IllegalStateException when what it needs is missing.
     */
    public GpuBackend(
            GpuVendor vendor,
            DeviceInfo device,
            int ordinal,
            GpuRuntime runtime,
            Supplier<GpuKernelCompiler> compiler,
            Function<GpuRuntime, GemmChoice> gemmChoice,
            BackendConfig config) {
        this.vendor = vendor;
        this.device = device;
        this.ordinal = ordinal;
        this.api = runtime;
        String p = vendor.optionPrefix() + ".";
        this.tf32 = onOff(config, p + "tf32", false);
        String mm = config.option(p + "matmul", "precise").trim().toLowerCase(Locale.ROOT);
        if (!mm.equals("precise") && !mm.equals("fast"))
            throw new InvalidOptionValueException(p + "matmul must be precise or fast, got '" + mm + "'");
        this.fastMatmul = mm.equals("fast");
        boolean profiling = onOff(config, p + "profile", false);
        // a profile times every step apart, which a replayed graph cannot do
        boolean useGraphs = !profiling && onOff(config, p + "graphs", vendor.graphsByDefault());
        String graphCacheValue = config.option(p + "graph_cache", "64").trim();
        int graphCache;
        try {
            graphCache = Integer.parseInt(graphCacheValue);
        } catch (NumberFormatException e) {
            throw new InvalidOptionValueException(
                    p + "graph_cache must be a whole number >= 1, got '" + graphCacheValue + "'");
        }
        String cacheDir = config.option(p + "kernel_cache", "").trim();
        boolean pinned = onOff(config, p + "pinned", true);
        boolean prebuilt = onOff(config, p + "prebuilt_kernels", true);
        boolean useVmm = onOff(config, p + "vmm", false);
        // 4: moonshine-tiny's server under 64 clients on an H100 gave 1399, 1540 and 1649 audio s/s at 64, 16 and 4 in
        // one call (docs/PERFORMANCE.md); a lone stream (one row) keeps the mat-vec kernel either way
        int matvecRows = rows(config, p + "matvec_max_rows", 4);
        // 0 (off): correct on an H100 (check --op matmul) and no faster there for Whisper tiny (docs/WHISPER.md, "The
        // second run"); kept as an option for devices or graphs-off runs where launches cost more
        int halfRows = rows(config, p + "half_matvec_rows", 0);
        VmmPool v = null;
        KernelCache k = null;
        GemmChoice g = null;
        MemorySegment s = null;
        PinnedStaging st = null;
        DeviceLimits l = null;
        try {
            runtime.makeCurrent();
            l = new DeviceLimits(runtime.maxSharedPerBlock());
            s = runtime.createStream();
            if (useVmm)
                v = new VmmPool(runtime.virtualMemory(), device.memoryTotal() > 0 ? device.memoryTotal() : 32L << 30);
            if (pinned) st = new PinnedStaging(runtime, PINNED_HALF_BYTES);
            k = new KernelCache(
                    runtime,
                    compiler.get(),
                    device.arch(),
                    cacheDir.equals("off")
                            ? null
                            : cacheDir.isEmpty() ? KernelCache.defaultDir(vendor.optionPrefix()) : Path.of(cacheDir),
                    prebuilt);
            g = gemmChoice.apply(runtime);
        } catch (RuntimeException | Error e) {
            if (g != null && g.blas() != null) g.blas().close();
            if (k != null) k.close();
            if (st != null) st.close();
            if (v != null) v.close();
            if (s != null) runtime.destroyStream(s);
            runtime.release();
            throw e;
        }
        this.limits = l;
        this.stream = s;
        this.staging = st;
        this.vmm = v;
        this.kernels = k;
        this.blas = g.blas();
        this.gemm = g.describe();
        this.graphs = useGraphs ? new GraphCache(runtime::destroyGraphExec, graphCache, p + "graph_cache") : null;
        this.profile = profiling ? new StepProfile() : null;
        this.context = BindContext.open(
                runtime,
                k,
                blas,
                tf32,
                fastMatmul,
                vendor.verified().contains(Capability.FAST_PROJECTION),
                matvecRows,
                halfRows,
                l,
                this::alloc);
        LOG.log(System.Logger.Level.INFO, this::openedMessage);
    }

    /** The INFO line logged when the device opens: which GEMM path, graphs, and the VMM pool if any. */
    String openedMessage() {
        return vendor.registryName() + " device " + ordinal + " (" + device.name() + ", " + device.arch() + ") opened: "
                + detail() + (vmm != null ? " reserving " + vmm.reservedBytes() + " bytes" : "");
    }

    /** The GEMM path and graph setting, for every run summary. */
    @Override
    public String detail() {
        return "GEMM: " + gemm + "; graphs " + (graphs != null ? "on" : "off")
                + (profile != null ? " (profiling every step)" : "") + (vmm != null ? "; memory: VMM pool" : "");
    }

    /** The option keys every GPU backend on this layer reads, under the vendor's prefix ("cuda", "hip"). */
    public static java.util.Set<String> optionKeys(String prefix) {
        return java.util.Set.of(
                prefix + ".tf32",
                prefix + ".matmul",
                prefix + ".matvec_max_rows",
                prefix + ".half_matvec_rows",
                prefix + ".graphs",
                prefix + ".graph_cache",
                prefix + ".kernel_cache",
                prefix + ".prebuilt_kernels",
                prefix + ".pinned",
                prefix + ".vmm",
                prefix + ".profile");
    }

    /** A row count option: a whole number from 0 to 64 (the mat-vec kernels' reach), or the message that says so. */
    static int rows(BackendConfig config, String key, int fallback) {
        String v = config.option(key, Integer.toString(fallback)).trim();
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n > 64)
            throw new InvalidOptionValueException(key + " must be a whole number from 0 to 64, got '" + v + "'");
        return n;
    }

    static boolean onOff(BackendConfig config, String key, boolean fallback) {
        String v = config.option(key, fallback ? "on" : "off").trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "on", "true", "1" -> true;
            case "off", "false", "0" -> false;
            default -> throw new InvalidOptionValueException(key + " must be on or off, got '" + v + "'");
        };
    }

    @Override
    public String registryName() {
        return vendor.registryName();
    }

    @Override
    public DeviceInfo device() {
        return device;
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return vendor.verified();
    }

    @Override
    public boolean supportsOp(Tensor node) {
        return GpuOps.supports(node, limits);
    }

    DeviceLimits limits() {
        return limits;
    }

    // Below, up to profileReport: for GpuBenchHooks and tests, not on the Backend surface.

    /** The vendor runtime this backend drives (benchmarks time with its events). */
    GpuRuntime api() {
        return api;
    }

    KernelCache kernels() {
        return kernels;
    }

    /** The GEMM library, or null when GEMMs run on the engine's own kernels. */
    GpuBlas blas() {
        return blas;
    }

    /** Which GEMM path runs, and why when it is the engine's own kernels. */
    String gemmPath() {
        return gemm;
    }

    /** Null when graph capture is off. */
    GraphCache graphCache() {
        return graphs;
    }

    /** The profile so far (P.profile=on), null when off. */
    synchronized String profileReport() {
        return profile == null ? null : profile.report(vendor.registryName() + " device " + ordinal);
    }

    MemorySegment stream() {
        return stream;
    }

    String vendorName() {
        return api.vendor();
    }

    private void enter() {
        if (closed) throw new IllegalStateException(api.vendor() + " backend is closed");
        api.makeCurrent();
    }

    /** cuMemGetInfo / hipMemGetInfo on this backend's context. */
    @Override
    public synchronized java.util.Optional<dev.audioengine.api.spi.DeviceMemory> memory() {
        enter();
        long[] m = api.memInfo();
        return java.util.Optional.of(new dev.audioengine.api.spi.DeviceMemory(m[0], m[1]));
    }

    @Override
    public synchronized DeviceBuffer allocate(long bytes) {
        enter();
        return alloc(bytes);
    }

    /** Device memory outside any compiled segment (benchmarks' operands). */
    GpuBuffer allocateScratch(long bytes) {
        return alloc(bytes);
    }

    private synchronized GpuBuffer alloc(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative allocation: " + bytes);
        long address = vmm != null ? vmm.alloc(bytes) : api.alloc(Math.max(bytes, 1), stream);
        if (address == 0) {
            api.synchronize(stream);
            releaseCachedMemory();
            throw new OutOfDeviceMemoryException(
                    device.name() + " (" + api.vendor() + " device " + ordinal + ")", bytes, api.memInfo()[0]);
        }
        GpuBuffer b = new GpuBuffer(address, bytes, this::free);
        live.add(b);
        return b;
    }

    private synchronized void free(GpuBuffer b) {
        if (!live.remove(b) || closed) return;
        api.makeCurrent();
        if (vmm != null) vmm.free(b.rawAddress()); // reused only by work enqueued later on the same stream
        else api.free(b.rawAddress(), stream); // after the work already enqueued that may read it
    }

    private void releaseCachedMemory() {
        if (vmm != null) vmm.trim();
        else api.releaseCachedMemory();
    }

    /** The VMM pool, or null when P.vmm is off. */
    VmmPool vmmPool() {
        return vmm;
    }

    /** The device buffer behind {@code b}. */
    static GpuBuffer gpu(DeviceBuffer b) {
        return GpuBuffer.of(b);
    }

    private static void checkRange(GpuBuffer b, long offset, long bytes, String what) {
        if (offset < 0 || bytes < 0 || offset + bytes > b.byteSize()) {
            throw new IndexOutOfBoundsException(what + " of " + bytes + " bytes at offset " + offset + " outside " + b);
        }
    }

    @Override
    public synchronized void upload(DeviceBuffer dst, long dstOffset, MemorySegment src) {
        enter();
        GpuBuffer b = gpu(dst);
        checkRange(b, dstOffset, src.byteSize(), "upload");
        api.synchronize(stream);
        if (staging != null && src.byteSize() >= PinnedStaging.MIN_BYTES)
            staging.upload(b.address() + dstOffset, src, stream);
        else if (src.byteSize() > 0) api.copyHtoD(b.address() + dstOffset, src, src.byteSize());
    }

    @Override
    public synchronized void download(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        enter();
        GpuBuffer b = gpu(src);
        checkRange(b, srcOffset, dst.byteSize(), "download");
        api.synchronize(stream);
        if (dst.byteSize() > 0) api.copyDtoH(dst, b.address() + srcOffset, dst.byteSize());
    }

    @Override
    public synchronized Executable compile(List<Tensor> nodes, TensorPlacement placement) {
        enter();
        Arena arena = Arena.ofShared();
        Binding b = new Binding(context, placement, arena);
        try {
            for (Tensor n : nodes) GpuOps.bind(n, b);
        } catch (RuntimeException | Error e) {
            b.releaseDecoded();
            for (GpuBuffer s : b.scratchBuffers()) s.close();
            arena.close();
            throw e;
        }
        return new GpuExecutable(this, b.steps(), arena, b.scratchBuffers(), b::releaseDecoded);
    }

    /** Fills {@code n} elements of type {@code t} at {@code address} with seeded uniform values (benchmark inputs). */
    synchronized void fillUniform(long address, DType t, long n, int seed) {
        enter();
        try (Arena arena = Arena.ofConfined()) {
            Binding bind = new Binding(context, null, arena);
            GpuOps.fillUniform(bind, address, t, n, seed);
            for (Step s : bind.steps()) s.enqueue(stream);
            api.synchronize(stream); // the arguments live in this arena
        }
    }

    /** Waits for everything enqueued so far. */
    @Override
    public synchronized void synchronize() {
        enter();
        api.synchronize(stream);
    }

    /** The run of a segment that is captured into a graph (earlier runs go launch by launch). */
    static final long CAPTURE_RUN = 3;

    /**
     * Enqueues a segment's steps: replaying its captured graph, capturing it first, or launch by launch. A segment's
     * first two runs go launch by launch and the third is captured: capturing and instantiating a graph costs about
     * what its launches cost, and eager launches overlap the device's work, so a graph pays only if the segment keeps
     * running (decoder steps, streaming chunks). Kokoro compiles each sentence's length anew and runs it once or
     * twice: capturing on its first or second run made it slower than no graphs at all (docs/PERFORMANCE-cuda.md).
     */
    synchronized void execute(Object owner, List<Step> steps, long run) {
        enter();
        if (profile != null) {
            for (Step s : steps) {
                api.synchronize(stream);
                long t0 = System.nanoTime();
                s.enqueue(stream);
                api.synchronize(stream);
                profile.add(s.label(), System.nanoTime() - t0);
            }
            return;
        }
        MemorySegment g = graphs == null ? null : graphs.get(owner);
        if (graphs == null || steps.isEmpty() || (g == null && run < CAPTURE_RUN)) {
            for (Step s : steps) s.enqueue(stream);
            return;
        }
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

    /** Bytes held now by F32 copies of quantized weight constants ({@code P.matvec_max_rows}). */
    synchronized long decodedBytes() {
        return context.decodedBytes();
    }

    /** Runs a closing segment's hand-back of shared device state, unless the backend has already freed it all. */
    synchronized void release(Runnable handBack) {
        if (!closed) handBack.run();
    }

    synchronized void forgetGraph(Object owner) {
        if (graphs != null && !closed) {
            api.makeCurrent();
            graphs.remove(owner);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        api.makeCurrent();
        try {
            api.synchronize(stream);
            // asked for with P.profile=on, so printed where the user looks, not through a logger that may be quiet
            if (profile != null && !profile.isEmpty()) System.err.print(profileReport());
            if (graphs != null) graphs.clear();
            if (blas != null) blas.close();
            kernels.close();
            if (staging != null) staging.close();
            if (vmm == null) for (GpuBuffer b : List.copyOf(live)) api.free(b.rawAddress(), stream);
            live.clear();
            api.synchronize(stream);
            if (vmm != null) vmm.close();
            else api.releaseCachedMemory();
            api.destroyStream(stream);
        } finally {
            closed = true;
            api.release();
        }
    }
}
