package dev.audioengine.api.capability;

import java.util.Arrays;
import java.util.Locale;

/**
 * Named optimizations a model may use only where a backend has verified them (DESIGN.md,
 * Capabilities). Each names the conformance cases that are its evidence.
 */
public enum Capability {
    /** A dedicated depthwise conv1d kernel (groups == channels). */
    DEPTHWISE_CONV1D_FAST,
    /** conv_transpose1d lowered to GEMM + col2im. */
    CONV_TRANSPOSE1D_COL2IM,
    /** One fused attention op instead of matmul-softmax-matmul. */
    FUSED_ATTENTION,
    /** Matmul reading BF16 weights directly. */
    BF16_WEIGHTS,
    /** Projections through the backend's fastest GEMM path (packed or vendor BLAS). */
    FAST_PROJECTION,
    /** Inverse STFT computed on the device. */
    DEVICE_ISTFT,
    /** Random numbers that match PyTorch's generator bit for bit. */
    TORCH_COMPATIBLE_RANDOM,
    /** Replaying a recorded plan as one captured device graph. */
    GRAPH_CAPTURE,
    /** Matmul, get_rows and cast reading Q5_0 blocks directly; without it a model loads Q5_0 weights as F32. */
    Q5_0_WEIGHTS,
    /** Matmul, get_rows and cast reading Q5_1 blocks directly; without it a model loads Q5_1 weights as F32. */
    Q5_1_WEIGHTS,
    /** Matmul, get_rows and cast reading Q4_1 blocks directly; without it a model loads Q4_1 weights as F32. */
    Q4_1_WEIGHTS,
    /** Matmul, get_rows and cast reading Q6_K super-blocks directly; without it a model loads Q6_K weights as F32. */
    Q6_K_WEIGHTS,
    /** Matmul, get_rows and cast reading Q4_K super-blocks directly; without it a model loads Q4_K weights as F32. */
    Q4_K_WEIGHTS,
    /** Matmul, get_rows and cast reading Q5_K super-blocks directly; without it a model loads Q5_K weights as F32. */
    Q5_K_WEIGHTS,
    /** Matmul, get_rows and cast reading Q3_K super-blocks directly; without it a model loads Q3_K weights as F32. */
    Q3_K_WEIGHTS,
    /** Matmul, get_rows and cast reading Q2_K super-blocks directly; without it a model loads Q2_K weights as F32. */
    Q2_K_WEIGHTS;

    /**
     * The capability a backend needs before a model may keep weights of {@code type} as they are stored, for the
     * types not every backend multiplies: {@link #BF16_WEIGHTS} for BF16, {@link #Q5_0_WEIGHTS} for Q5_0 and so on.
     *
     * @param type a weight's element type
     * @return that capability, or empty for types every backend reads (F32, F16, Q8_0, Q4_0, the integer types)
     */
    public static java.util.Optional<Capability> weights(dev.audioengine.api.tensor.DType type) {
        return java.util.Optional.ofNullable(
                switch (type) {
                    case BF16 -> BF16_WEIGHTS;
                    case Q5_0 -> Q5_0_WEIGHTS;
                    case Q5_1 -> Q5_1_WEIGHTS;
                    case Q4_1 -> Q4_1_WEIGHTS;
                    case Q6_K -> Q6_K_WEIGHTS;
                    case Q4_K -> Q4_K_WEIGHTS;
                    case Q5_K -> Q5_K_WEIGHTS;
                    case Q3_K -> Q3_K_WEIGHTS;
                    case Q2_K -> Q2_K_WEIGHTS;
                    default -> null;
                });
    }

    /**
     * The capability with this name, as users type it: case and surrounding space ignored, dashes for underscores
     * ({@code fused-attention}).
     *
     * @param name a constant's name, without the {@code +}/{@code -} of a switch
     * @return the capability, for {@code +NAME}/{@code -NAME} switches and evidence lookups
     * @throws IllegalArgumentException if no capability has that name; the message lists the valid ones
     */
    public static Capability parse(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (Capability c : values()) if (c.name().equals(n)) return c;
        throw new IllegalArgumentException("unknown capability '" + name + "'; valid: " + Arrays.toString(values()));
    }
}
