package dev.audioengine.gpu;

import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.gpu.compile.KernelCache;
import dev.audioengine.gpu.gemm.GpuBlas;
import dev.audioengine.gpu.runtime.GpuBuffer;
import dev.audioengine.gpu.runtime.GpuRuntime;
import java.lang.foreign.MemorySegment;

/**
 * What a benchmark reaches past the {@link Backend} API of an open CUDA or HIP backend: the vendor runtime
 * and stream (to time with its events), the kernel cache, the GEMM library, raw device memory and seeded
 * inputs. Kept off {@link GpuBackend}'s public surface so that production code cannot depend on it; the
 * module exports this package to the bench module and the vendor backends only.
 */
public final class GpuBenchHooks {
    private GpuBenchHooks() {}

    private static GpuBackend gpu(Backend b) {
        if (b instanceof GpuBackend g) return g;
        throw new IllegalArgumentException("not a CUDA or HIP backend: " + b.registryName());
    }

    /** The vendor runtime the backend drives. */
    public static GpuRuntime runtime(Backend b) {
        return gpu(b).api();
    }

    /** The one stream every copy and kernel of the backend goes through. */
    public static MemorySegment stream(Backend b) {
        return gpu(b).stream();
    }

    public static KernelCache kernels(Backend b) {
        return gpu(b).kernels();
    }

    /** The GEMM library, or null when GEMMs run on the engine's own kernels. */
    public static GpuBlas blas(Backend b) {
        return gpu(b).blas();
    }

    /** Graphs captured so far; 0 when graph capture is off. */
    public static long graphCaptures(Backend b) {
        var graphs = gpu(b).graphCache();
        return graphs == null ? 0 : graphs.captures();
    }

    /** Device memory outside any compiled segment. */
    public static GpuBuffer allocateScratch(Backend b, long bytes) {
        return gpu(b).allocateScratch(bytes);
    }

    /** The device buffer behind {@code buffer}. */
    public static GpuBuffer buffer(DeviceBuffer buffer) {
        return GpuBuffer.of(buffer);
    }

    /** Fills {@code n} elements of type {@code t} at {@code address} with seeded uniform values, and waits. */
    public static void fillUniform(Backend b, long address, DType t, long n, int seed) {
        gpu(b).fillUniform(address, t, n, seed);
    }
}
