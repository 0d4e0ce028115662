package dev.audioengine.api.spi;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;

/**
 * An opened device: ggml's backend interface in Java. The engine plans memory and calls
 * {@link #compile} once per graph shape; a GPU backend may record a command buffer or capture
 * a device graph there. Not thread-safe: one run at a time.
 */
public interface Backend extends AutoCloseable {
    String registryName();

    DeviceInfo device();

    Set<Capability> verifiedCapabilities();

    /**
     * Whether this backend can compute {@code node} as given (op, dtypes, shapes, strides).
     * Leaves and views are never asked about.
     */
    boolean supportsOp(Tensor node);

    /**
     * Choices made when the device was opened that decide how results are computed or how fast,
     * e.g. "GEMM: cuBLASLt /usr/lib/libcublasLt.so.13; graphs on"; shown in every {@link
     * dev.audioengine.api.exec.RunSummary}. Empty when there is nothing beyond the device.
     */
    default String detail() {
        return "";
    }

    /**
     * The device's free and total memory as its driver reports them, for monitoring (a server's /metrics); empty
     * where the backend has no such figure (the CPU's memory is the process's and the OS's to report).
     */
    default java.util.Optional<DeviceMemory> memory() {
        return java.util.Optional.empty();
    }

    /** Allocates device memory; throws {@link OutOfDeviceMemoryException} with sizes when it cannot. */
    DeviceBuffer allocate(long bytes);

    void upload(DeviceBuffer dst, long dstOffset, MemorySegment src);

    /**
     * A buffer that reads a constant weight where it already lies in host memory, for a backend whose device memory
     * is host memory (the CPU): no second copy of the weight, which may be a memory-mapped prepared file. Null (the
     * default) when the backend needs its own copy, or cannot read {@code weight} in place (alignment); the engine
     * then allocates and uploads. The memory stays its owner's: closing the buffer must not free it, and the owner
     * (a weight store) outlives every graph compiled over it. Kernels never write to constants.
     */
    default DeviceBuffer adoptHostConstant(MemorySegment weight) {
        return null;
    }

    void download(DeviceBuffer src, long srcOffset, MemorySegment dst);

    /**
     * Compiles {@code nodes} (compute nodes only, in order) against fixed placements. Inputs whose
     * storage is an {@link dev.audioengine.api.graph.Op.Constant} already hold their values when
     * this is called and never change afterwards (the engine uploads weights once, before
     * compiling), so a backend may derive data from them here, e.g. weights packed for its GEMM.
     */
    Executable compile(List<Tensor> nodes, TensorPlacement placement);

    /**
     * Waits until every piece of work queued on this backend has finished. {@link Executable#run}
     * may return once work is queued (downloads wait for it); timing code must call this.
     */
    default void synchronize() {}

    /** Frees everything this backend allocated. */
    @Override
    void close();
}
