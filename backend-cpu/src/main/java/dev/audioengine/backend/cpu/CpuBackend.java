package dev.audioengine.backend.cpu;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.OutOfDeviceMemoryException;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.backend.cpu.kernels.CpuKernels;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.RunScratch;
import dev.audioengine.backend.cpu.kernels.linear.PanelCache;
import dev.audioengine.backend.cpu.threads.OpThreads;
import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The CPU as a backend: buffers are native segments, a compiled run is a list of bound kernels.
 * Each kernel gets the share of the worker pool its op's work calls for ({@link OpThreads}), or
 * all of it when {@code everyOpOnAllThreads} (option {@code cpu.op-threads=all}, for testing the
 * split code paths on small shapes).
 */
final class CpuBackend implements Backend {
    private final DeviceInfo device;
    private final WorkerPool pool;
    private final boolean everyOpOnAllThreads;
    private final PanelCache panels;
    private final Set<CpuBuffer> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    CpuBackend(DeviceInfo device, int threads, boolean everyOpOnAllThreads, long weightCacheBytes) {
        this.device = device;
        this.panels = new PanelCache(weightCacheBytes);
        this.pool = new WorkerPool(threads);
        this.everyOpOnAllThreads = everyOpOnAllThreads;
    }

    @Override
    public String registryName() {
        return "CPU";
    }

    @Override
    public DeviceInfo device() {
        return device;
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return CpuBackendProvider.VERIFIED;
    }

    @Override
    public boolean supportsOp(Tensor node) {
        return CpuKernels.supports(node);
    }

    public int threads() {
        return pool.threads();
    }

    /** Worker threads the pool has started (none while every op has run on the calling thread). */
    int startedWorkers() {
        return pool.startedWorkers();
    }

    @Override
    public synchronized DeviceBuffer allocate(long bytes) {
        ensureOpen();
        try {
            CpuBuffer b = new CpuBuffer(bytes, this::forget);
            panels.forget(b.segment()); // see adoptHostConstant: panels of freed memory at this address are stale
            live.add(b);
            return b;
        } catch (OutOfMemoryError e) {
            throw new OutOfDeviceMemoryException("CPU (native memory)", bytes, SystemMemory.read()[1]);
        }
    }

    /**
     * Weights are read where they lie (a prepared file's pages, a store's tensor): a copy would double the resident
     * weights. Only 64-byte aligned memory is adopted, as the kernels' buffers are aligned; a view into a source file
     * at an odd offset is copied as before.
     */
    @Override
    public synchronized DeviceBuffer adoptHostConstant(MemorySegment weight) {
        ensureOpen();
        if (!weight.isNative() || weight.address() % 64 != 0) return null;
        CpuBuffer b = new CpuBuffer(weight, this::forget);
        // An adopted weight is freed by its owner (a closed model's store), not by closing this view, which lives until
        // the engine closes; a new weight may then get the same address, and must not find the old one's panels.
        panels.forget(weight);
        live.add(b);
        return b;
    }

    @Override
    public void upload(DeviceBuffer dst, long dstOffset, MemorySegment src) {
        MemorySegment.copy(src, 0, cpu(dst).segment(), dstOffset, src.byteSize());
    }

    @Override
    public void download(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        MemorySegment.copy(cpu(src).segment(), srcOffset, dst, 0, dst.byteSize());
    }

    @Override
    public Executable compile(List<Tensor> nodes, TensorPlacement placement) {
        ensureOpen();
        List<Runnable> bound = new ArrayList<>(nodes.size());
        RunScratch scratch = new RunScratch();
        for (Tensor n : nodes) {
            KernelContext ctx = new KernelContext(
                    everyOpOnAllThreads ? pool : pool.limitedTo(OpThreads.choose(n, pool.threads())), panels, scratch);
            CpuTensor out = view(n, placement);
            CpuTensor[] in = new CpuTensor[n.inputs().size()];
            for (int i = 0; i < in.length; i++) in[i] = view(n.input(i), placement);
            bound.add(CpuKernels.bind(n, out, in, ctx));
        }
        Runnable[] steps = bound.toArray(Runnable[]::new);
        return () -> {
            for (Runnable r : steps) r.run();
        };
    }

    /**
     * Runs of distinct executables are independent: each keeps its kernels' scratch ({@link RunScratch}) to itself,
     * the weight panel cache is synchronized, and a split that finds the worker pool busy with another run's split
     * runs its chunks on its own thread, the same chunks, so the same bits.
     */
    @Override
    public boolean supportsConcurrentRuns() {
        return true;
    }

    private static CpuTensor view(Tensor t, TensorPlacement placement) {
        MemorySegment seg = cpu(placement.buffer(t)).segment();
        return CpuTensor.of(t, seg, placement.byteOffset(t));
    }

    private static CpuBuffer cpu(DeviceBuffer b) {
        if (b instanceof CpuBuffer c) return c;
        throw new IllegalArgumentException("not a CPU buffer: " + b);
    }

    private synchronized void forget(CpuBuffer b) {
        live.remove(b);
        panels.forget(b.segment());
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("CPU backend is closed");
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (CpuBuffer b : List.copyOf(live)) b.close();
        pool.close();
    }
}
