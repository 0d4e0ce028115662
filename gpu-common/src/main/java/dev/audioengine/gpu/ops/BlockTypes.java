package dev.audioengine.gpu.ops;

import dev.audioengine.api.tensor.DType;

/**
 * The block-quantized types the CUDA/HIP kernels decode (linear.cu's ae_matvec_q and tile loader, the cast and
 * get_rows kernels): Q8_0 and Q4_0. The engine's other block types (Q5_0, Q5_1, Q4_1 and the k-quants Q6_K, Q4_K,
 * Q5_K, Q3_K, Q2_K) have no kernel here yet, so ops
 * reading them are not supported (the CPU runs them where fallback is on), and these backends do not declare their
 * weight capabilities: a model then loads such weights as F32 (the dequantize-on-load path the capability decides).
 */
final class BlockTypes {
    private BlockTypes() {}

    /** True for plain types and for the block types the kernels here decode. */
    static boolean decoded(DType t) {
        return !t.isQuantized() || t == DType.Q8_0 || t == DType.Q4_0;
    }
}
