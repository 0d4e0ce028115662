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
        int matvecMaxRows,
        int halfMatvecRows,
        DecodedWeights decoded,
        DeviceLimits limits,
        LongFunction<GpuBuffer> scratch) {
    /**
     * A context whose decoded weight copies come from {@code allocate} ({@link DecodedWeights}); {@code matvecMaxRows}:
     * up to this many rows of x, quantized constant weights take the mat-vec kernel, past it the library on a decoded
     * copy (where {@code fastProjection}); {@code halfMatvecRows}: up to this many rows, F16 and BF16 weights take the
     * half mat-vec kernel instead of the library (0: never).
     */
    public static BindContext open(
            GpuRuntime runtime,
            KernelCache kernels,
            GpuBlas blas,
            boolean tf32,
            boolean fastMatmul,
            boolean fastProjection,
            int matvecMaxRows,
            int halfMatvecRows,
            DeviceLimits limits,
            LongFunction<GpuBuffer> scratch) {
        return new BindContext(
                runtime,
                kernels,
                blas,
                tf32,
                fastMatmul,
                fastProjection,
                matvecMaxRows,
                halfMatvecRows,
                new DecodedWeights(scratch),
                limits,
                scratch);
    }

    /** Bytes held by decoded weight copies now. */
    public long decodedBytes() {
        return decoded.bytes();
    }

    /** "CUDA", "HIP": names the backend in messages. */
    String vendorName() {
        return runtime.vendor();
    }
}
