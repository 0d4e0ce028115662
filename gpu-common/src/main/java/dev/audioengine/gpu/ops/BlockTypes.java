package dev.audioengine.gpu.ops;

import dev.audioengine.api.tensor.DType;

/**
 * The block-quantized types the CUDA/HIP kernels decode: Q8_0, Q4_0, Q5_0, Q5_1 and Q4_1 (ggml's 32-value blocks).
 * ae_tensor.h decodes an element of each with BlockQuantization's arithmetic (ld_any: the cast and get_rows kernels,
 * the tiled matmul's tile loader, and the F32 copies of {@link DecodedWeights}), linear.cu's ae_matvec_q multiplies
 * the blocks in place, and layout.cu's ae_quantize writes them as BlockQuantization does, byte for byte
 * (BlockDecodeHostTest runs those kernels on the host against the Java code). The k-quants (Q6_K, Q4_K, Q5_K, Q3_K,
 * Q2_K) have no kernel here yet, so ops reading them are not supported (the CPU runs them where fallback is on).
 * <p>
 * Decoding a type is not declaring its weight capability: a backend declares Q5_0_WEIGHTS and the like only once
 * their conformance cases passed on its hardware (CUDA does; HIP has had no AMD GPU to run them on); without it a model
 * loads such weights as F32 (the dequantize-on-load path the capability decides), while graphs that hold the blocks
 * still run on these kernels.
 */
final class BlockTypes {
    private BlockTypes() {}

    /** True for plain types and for the block types the kernels here decode. */
    static boolean decoded(DType t) {
        return switch (t) {
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1 -> true;
            default -> !t.isQuantized();
        };
    }
}
