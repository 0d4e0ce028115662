package dev.audioengine.backend.vulkan;

import dev.audioengine.api.graph.Tensor;

import java.util.List;

/** Which nodes have a native shader, and the dispatches that compute each. */
final class VulkanKernels {
    private VulkanKernels() {}

    static boolean supports(Tensor n, VulkanContext ctx) {
        if (n.elements() >= Integer.MAX_VALUE) return false; // shaders index with 32-bit unsigned ints
        for (Tensor in : n.inputs()) if (in.storage().elements() >= Integer.MAX_VALUE) return false;
        return ElementwiseKernels.supports(n) || LinearKernels.supports(n) || LayoutKernels.supports(n)
                || SequenceKernels.supports(n) || RowKernels.supports(n)
                || SpectralKernels.supports(n);
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        if (n.elements() == 0) return List.of();
        if (ElementwiseKernels.supports(n)) return ElementwiseKernels.plan(n, o, ctx);
        if (LinearKernels.supports(n)) return LinearKernels.plan(n, o, ctx);
        if (LayoutKernels.supports(n)) return LayoutKernels.plan(n, o, ctx);
        if (SequenceKernels.supports(n)) return SequenceKernels.plan(n, o, ctx);
        if (RowKernels.supports(n)) return RowKernels.plan(n, o, ctx);
        if (SpectralKernels.supports(n)) return SpectralKernels.plan(n, o, ctx);
        throw new IllegalArgumentException("the Vulkan backend has no shader for " + n + " (supportsOp says no)");
    }
}
