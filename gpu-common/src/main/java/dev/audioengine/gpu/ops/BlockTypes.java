package dev.audioengine.gpu.ops;

import dev.audioengine.api.tensor.DType;

/**
 * The block-quantized types the CUDA/HIP kernels decode: every one the engine has, ggml's 32-value blocks (Q8_0, Q4_0,
 * Q5_0, Q5_1, Q4_1) and its 256-value k-quant super-blocks (Q6_K, Q4_K, Q5_K, Q3_K, Q2_K). ae_tensor.h decodes an
 * element of each with engine-api's BlockQuantization/KQuants arithmetic (ld_any: the cast and get_rows kernels, the
 * tiled matmul's tile loader, and the F32 copies of {@link DecodedWeights}), linear.cu's ae_matvec_&lt;type&gt; multiplies the
 * blocks in place, and layout.cu's ae_quantize writes them as BlockQuantization does, byte for byte
 * (BlockDecodeHostTest runs those kernels on the host against the Java code). A block type added to the engine later
 * is not decoded until its kernels are here: ops reading it are then unsupported (the CPU runs them where fallback is
 * on) rather than reading its bytes as another type's.
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
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K -> true;
            default -> !t.isQuantized();
        };
    }
}
