package dev.audioengine.gpu.ops;

import dev.audioengine.gpu.compile.KernelCache;
import dev.audioengine.gpu.gemm.GpuBlas;
import dev.audioengine.gpu.runtime.GpuBuffer;
import dev.audioengine.gpu.runtime.GpuRuntime;
import java.util.function.LongFunction;

/**
 * What the op families need from the open device while they bind a segment: the vendor runtime, the
 * compiled kernels, the GEMM library (null: the engine's own GEMM kernels), the GEMM options, the device's
 * limits and where scratch memory comes from. GpuBackend makes one when it opens. {@code fastProjection}: the vendor
 * has verified FAST_PROJECTION, so quantized weights of wide products may go through the library as well
 * (CapabilityEvidence names the cases); HIP has not, and keeps its own kernels for them.
 */
public record BindContext(
        GpuRuntime runtime,
        KernelCache kernels,
        GpuBlas blas,
        boolean tf32,
        boolean fastMatmul,
        boolean fastProjection,
        DeviceLimits limits,
        LongFunction<GpuBuffer> scratch) {
    /** "CUDA", "HIP": names the backend in messages. */
    String vendorName() {
        return runtime.vendor();
    }
}
