package dev.audioengine.gpu.gemm;

import dev.audioengine.api.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * The vendor's GEMM library (cuBLASLt, hipBLASLt): column-major D = op(A)·op(B) with F32
 * accumulation, strided batches, one plan per distinct shape made once and kept until close.
 */
public interface GpuBlas extends AutoCloseable {
    /**
     * Everything that decides descriptors and algorithm, in the library's column-major terms.
     * {@code ab} is the type of A and B (F32, F16, BF16), {@code d} of D; {@code fastF32} lets F32
     * GEMMs run on reduced-precision units (TF32).
     */
    record Shape(
            DType ab,
            DType d,
            boolean fastF32,
            boolean transA,
            boolean transB,
            long m,
            long n,
            long k,
            long lda,
            long ldb,
            long ldd,
            int batch,
            long strideA,
            long strideB,
            long strideD,
            int alignA,
            int alignB,
            int alignD) {}

    /** A shape's descriptors and chosen algorithm; owned by the library object that made it. */
    interface Plan {}

    /** The plan for {@code s}, made on first use; null when the library offers no algorithm for it. */
    Plan plan(Shape s);

    /** Enqueues D = op(A)·op(B), or D += op(A)·op(B) when {@code accumulate}. */
    void run(Plan p, long a, long b, long d, MemorySegment stream, boolean accumulate);

    /** The library and where it was loaded from, e.g. "cuBLASLt /usr/local/cuda/lib64/libcublasLt.so.13". */
    String describe();

    @Override
    void close();

    /** Alignment in bytes (a power of two up to 256) that a device address is known to have. */
    static int alignment(long address) {
        return (int) Math.min(256, Long.lowestOneBit(address == 0 ? 256 : address));
    }
}
