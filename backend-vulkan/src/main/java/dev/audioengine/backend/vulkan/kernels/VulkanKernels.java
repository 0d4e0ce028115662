package dev.audioengine.backend.vulkan;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

import java.util.List;

/**
 * Which nodes have a native shader, and the dispatches that compute each. The family of every
 * op is one switch over the sealed {@link Op} without a default branch, so a new op does not
 * compile until Vulkan says which family computes it (or that it dispatches nothing).
 */
final class VulkanKernels {
    private VulkanKernels() {}

    /** The shader families; each may still say no for some dtypes or shapes. */
    private enum Family { NONE, ELEMENTWISE, LINEAR, LAYOUT, SEQUENCE, ROWS, SPECTRAL, CACHE }

    private static Family familyOf(Op op) {
        return switch (op) {
            case Op.Input i -> Family.NONE;
            case Op.Constant c -> Family.NONE;
            case Op.State s -> Family.NONE;
            case Op.Slice s -> Family.NONE;
            case Op.Permute p -> Family.NONE;
            case Op.Reshape r -> Family.NONE;
            case Op.Binary b -> Family.ELEMENTWISE;
            case Op.Unary u -> Family.ELEMENTWISE;
            case Op.Scale s -> Family.ELEMENTWISE;
            case Op.Snake s -> Family.ELEMENTWISE;
            case Op.Concat c -> Family.ELEMENTWISE;
            case Op.Magnitude m -> Family.ELEMENTWISE;
            case Op.MatMul m -> Family.LINEAR;
            case Op.Conv1d c -> Family.LINEAR;
            case Op.ConvTranspose1d c -> Family.LINEAR;
            case Op.Pad p -> Family.LAYOUT;
            case Op.Contiguous c -> Family.LAYOUT;
            case Op.Cast c -> Family.LAYOUT;
            case Op.GetRows g -> Family.SEQUENCE;
            case Op.Rope r -> Family.SEQUENCE;
            case Op.Attention a -> Family.SEQUENCE;
            case Op.Lstm l -> Family.SEQUENCE;
            case Op.LayerNorm n -> Family.ROWS;
            case Op.RmsNorm n -> Family.ROWS;
            case Op.GroupNorm n -> Family.ROWS;
            case Op.Softmax s -> Family.ROWS;
            case Op.Reduce r -> Family.ROWS;
            case Op.Argmax a -> Family.ROWS;
            case Op.Stft s -> Family.SPECTRAL;
            case Op.Istft s -> Family.SPECTRAL;
            case Op.WriteSlice w -> Family.CACHE;
            case Op.KeyMask k -> Family.CACHE;
        };
    }

    static boolean supports(Tensor n, VulkanContext ctx) {
        if (n.elements() >= Integer.MAX_VALUE) return false; // shaders index with 32-bit unsigned ints
        for (Tensor in : n.inputs()) if (in.storage().elements() >= Integer.MAX_VALUE) return false;
        return switch (familyOf(n.op())) {
            case NONE -> false;
            case ELEMENTWISE -> ElementwiseKernels.supports(n);
            case LINEAR -> LinearKernels.supports(n);
            case LAYOUT -> LayoutKernels.supports(n);
            case SEQUENCE -> SequenceKernels.supports(n);
            case ROWS -> RowKernels.supports(n);
            case SPECTRAL -> SpectralKernels.supports(n);
            case CACHE -> CacheKernels.supports(n);
        };
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        if (n.elements() == 0) return List.of();
        return switch (familyOf(n.op())) {
            case NONE -> throw new IllegalArgumentException("the Vulkan backend has no shader for " + n + " (supportsOp says no)");
            case ELEMENTWISE -> ElementwiseKernels.plan(n, o, ctx);
            case LINEAR -> LinearKernels.plan(n, o, ctx);
            case LAYOUT -> LayoutKernels.plan(n, o, ctx);
            case SEQUENCE -> SequenceKernels.plan(n, o, ctx);
            case ROWS -> RowKernels.plan(n, o, ctx);
            case SPECTRAL -> SpectralKernels.plan(n, o, ctx);
            case CACHE -> CacheKernels.plan(n, o, ctx);
        };
    }
}
