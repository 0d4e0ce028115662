package dev.audioengine.api.spi;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;

/**
 * An opened device: ggml's backend interface in Java. The engine plans memory and calls
 * {@link #compile} once per graph shape; a GPU backend may record a command buffer or capture
 * a device graph there. Not thread-safe: one run at a time, unless {@link #supportsConcurrentRuns()} says otherwise.
 */
public interface Backend extends AutoCloseable {
    /**
     * The provider's name for this backend, as in {@link BackendProvider#registryName()}.
     *
     * @return "CPU", "CUDA", "ROCm", "Vulkan": shown in run summaries and error messages
     */
    String registryName();

    /**
     * The device this backend was opened on.
     *
     * @return the device as the probe described it (its free memory as of the probe, not now; see {@link #memory()})
     */
    DeviceInfo device();

    /**
     * The capabilities whose conformance cases pass on this device; the compiler uses only these (less any the user
     * switched off).
     *
     * @return an unmodifiable set, possibly narrower than the provider's where this device lacks a feature
     */
    Set<Capability> verifiedCapabilities();

    /**
     * Whether this backend can compute {@code node} as given (op, dtypes, shapes, strides).
     * Leaves and views are never asked about.
     *
     * @param node a compute node; its inputs' dtypes, shapes and strides are part of the question
     * @return false sends the node to the CPU fallback (or fails the compile, when fallback is off)
     */
    boolean supportsOp(Tensor node);

    /**
     * Choices made when the device was opened that decide how results are computed or how fast,
     * e.g. "GEMM: cuBLASLt /usr/lib/libcublasLt.so.13; graphs on"; shown in every {@link
     * dev.audioengine.api.exec.RunSummary}. Empty when there is nothing beyond the device.
     *
     * @return a one-line note, never null
     */
    default String detail() {
        return "";
    }

    /**
     * The device's free and total memory as its driver reports them, for monitoring (a server's /metrics); empty
     * where the backend has no such figure (the CPU's memory is the process's and the OS's to report).
     *
     * @return the figures as of this call (a driver query, cheap but not free), or empty
     */
    default java.util.Optional<DeviceMemory> memory() {
        return java.util.Optional.empty();
    }

    /**
     * Allocates device memory; throws {@link OutOfDeviceMemoryException} with sizes when it cannot.
     *
     * @param bytes the size, {@code >= 1}
     * @return a buffer the caller owns and closes before this backend; its contents are undefined until written
     * @throws OutOfDeviceMemoryException if the device has no room
     */
    DeviceBuffer allocate(long bytes);

    /**
     * Copies host memory into a buffer of this backend. When it returns, {@code src} may be changed or freed.
     *
     * @param dst a buffer this backend allocated (or adopted)
     * @param dstOffset where the copy starts in {@code dst}, in bytes
     * @param src the bytes to copy, all of them; {@code dstOffset + src.byteSize()} must fit in {@code dst}
     */
    void upload(DeviceBuffer dst, long dstOffset, MemorySegment src);

    /**
     * A buffer that reads a constant weight where it already lies in host memory, for a backend whose device memory
     * is host memory (the CPU): no second copy of the weight, which may be a memory-mapped prepared file. Null (the
     * default) when the backend needs its own copy, or cannot read {@code weight} in place (alignment); the engine
     * then allocates and uploads. The memory stays its owner's: closing the buffer must not free it, and the owner
     * (a weight store) outlives every graph compiled over it. Kernels never write to constants.
     *
     * @param weight the constant's bytes in host memory
     * @return a buffer over those bytes, or null to have the engine copy them
     */
    default DeviceBuffer adoptHostConstant(MemorySegment weight) {
        return null;
    }

    /**
     * Copies from a buffer of this backend into host memory, after the work queued before it has finished.
     *
     * @param src a buffer this backend allocated
     * @param srcOffset where the copy starts in {@code src}, in bytes
     * @param dst the host memory to fill, all of it: {@code dst.byteSize()} bytes are read
     */
    void download(DeviceBuffer src, long srcOffset, MemorySegment dst);

    /**
     * Compiles {@code nodes} (compute nodes only, in order) against fixed placements. Inputs whose
     * storage is an {@link dev.audioengine.api.graph.Op.Constant} already hold their values when
     * this is called and never change afterwards (the engine uploads weights once, before
     * compiling), so a backend may derive data from them here, e.g. weights packed for its GEMM.
     *
     * @param nodes compute nodes this backend said it supports, in execution order
     * @param placement where each of their inputs and outputs lives in this backend's memory; fixed for the life of
     *     the executable
     * @return the executable, owned and closed by the engine before the buffers it refers to
     */
    Executable compile(List<Tensor> nodes, TensorPlacement placement);

    /**
     * Waits until every piece of work queued on this backend has finished. {@link Executable#run}
     * may return once work is queued (downloads wait for it); timing code must call this.
     */
    default void synchronize() {}

    /**
     * Whether the executables of distinct compiled graphs may run on several threads at once (each executable on one
     * thread at a time). Allocation, compilation and constant uploads take turns all the same. False unless a backend
     * has made its runs independent: the CPU's kernels keep their scratch per compiled graph and its worker pool runs
     * a second caller's split on that caller's own thread. {@link dev.audioengine.api.AudioEngine#runLock} reads it.
     *
     * @return true where concurrent runs of distinct executables are safe
     */
    default boolean supportsConcurrentRuns() {
        return false;
    }

    /** Frees everything this backend allocated. */
    @Override
    void close();
}
