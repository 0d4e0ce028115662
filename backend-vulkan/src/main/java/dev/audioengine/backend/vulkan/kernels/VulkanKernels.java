package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which nodes have a native shader, and the dispatches that compute each. The family of every
 * op is one switch over the sealed {@link Op} without a default branch, in {@link Op.Family} order, so a
 * new op does not compile until Vulkan says which family computes it (or that it dispatches nothing).
 * Each family's class ({@code <Family>Kernels}) then switches over its own ops; it may still say no for
 * some dtypes or shapes.
 */
public final class VulkanKernels {
    private VulkanKernels() {}

    /** One family's kernels: which of its nodes have a shader, and the dispatches that compute one. */
    private record Family(Op.Family id, Predicate<Tensor> supports, Planner plan) {}

    private interface Planner {
        List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx);
    }

    private static final Family ELEMENTWISE =
            new Family(Op.Family.ELEMENTWISE, ElementwiseKernels::supports, ElementwiseKernels::plan);
    private static final Family LINEAR = new Family(Op.Family.LINEAR, LinearKernels::supports, LinearKernels::plan);
    private static final Family LAYOUT = new Family(Op.Family.LAYOUT, LayoutKernels::supports, LayoutKernels::plan);
    private static final Family REDUCTION =
            new Family(Op.Family.REDUCTION, ReductionKernels::supports, ReductionKernels::plan);
    private static final Family SEQUENCE =
            new Family(Op.Family.SEQUENCE, SequenceKernels::supports, SequenceKernels::plan);
    private static final Family SPECTRAL =
            new Family(Op.Family.SPECTRAL, SpectralKernels::supports, SpectralKernels::plan);

    /** The family of {@code op}, or null for leaves and views, which dispatch nothing. */
    private static Family familyOf(Op op) {
        return switch (op) {
            case Op.Input i -> null;
            case Op.Constant c -> null;
            case Op.State s -> null;
            case Op.Binary b -> ELEMENTWISE;
            case Op.Unary u -> ELEMENTWISE;
            case Op.Scale s -> ELEMENTWISE;
            case Op.Snake s -> ELEMENTWISE;
            case Op.MatMul m -> LINEAR;
            case Op.Conv1d c -> LINEAR;
            case Op.ConvTranspose1d c -> LINEAR;
            case Op.Slice s -> null;
            case Op.Permute p -> null;
            case Op.Reshape r -> null;
            case Op.Pad p -> LAYOUT;
            case Op.Concat c -> LAYOUT;
            case Op.Contiguous c -> LAYOUT;
            case Op.WriteSlice w -> LAYOUT;
            case Op.Cast c -> LAYOUT;
            case Op.LayerNorm n -> REDUCTION;
            case Op.RmsNorm n -> REDUCTION;
            case Op.GroupNorm n -> REDUCTION;
            case Op.Softmax s -> REDUCTION;
            case Op.Reduce r -> REDUCTION;
            case Op.Argmax a -> REDUCTION;
            case Op.GetRows g -> SEQUENCE;
            case Op.Rope r -> SEQUENCE;
            case Op.Attention a -> SEQUENCE;
            case Op.KeyMask k -> SEQUENCE;
            case Op.Lstm l -> SEQUENCE;
            case Op.Stft s -> SPECTRAL;
            case Op.Istft s -> SPECTRAL;
            case Op.Magnitude m -> SPECTRAL;
        };
    }

    public static boolean supports(Tensor n, VulkanContext ctx) {
        if (n.elements() >= Integer.MAX_VALUE) return false; // shaders index with 32-bit unsigned ints
        for (Tensor in : n.inputs()) if (in.storage().elements() >= Integer.MAX_VALUE) return false;
        Family f = familyOf(n.op());
        return f != null && f.supports().test(n);
    }

    public static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        if (n.elements() == 0) return List.of();
        Family f = familyOf(n.op());
        if (f == null)
            throw new IllegalArgumentException("the Vulkan backend has no shader for " + n + " (supportsOp says no)");
        assert f.id() == n.op().family() : n.op() + " is " + n.op().family() + ", planned by " + f.id();
        return f.plan().plan(n, o, ctx);
    }
}
