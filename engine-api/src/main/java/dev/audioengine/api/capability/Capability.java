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
    GRAPH_CAPTURE;

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
