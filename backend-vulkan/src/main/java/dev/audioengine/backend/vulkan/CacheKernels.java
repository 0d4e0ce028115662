package dev.audioengine.backend.vulkan;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

import java.util.List;

/**
 * In-place writes into persistent tensors (write_slice.comp) and the length mask of a
 * fixed-capacity cache (key_mask.comp): one thread per element. The position and the length are
 * read by the shader from their I32 inputs, so one recorded command buffer serves every step.
 */
final class CacheKernels {
    private static final int LOCAL = 256;

    private CacheKernels() {}

    static boolean supports(Tensor n) {
        return switch (n.op()) {
            case Op.WriteSlice w -> n.dtype() == DType.F32 && n.input(1).dtype() == DType.F32 && n.rank() <= 4;
            case Op.KeyMask k -> true;
            default -> false;
        };
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        return switch (n.op()) {
            case Op.WriteSlice w -> List.of(writeSlice(n, w, o, ctx));
            case Op.KeyMask k -> List.of(keyMask(n, k, o, ctx));
            default -> throw new IllegalArgumentException("not a cache op: " + n);
        };
    }

    private static Dispatch writeSlice(Tensor y, Op.WriteSlice op, Operands o, VulkanContext ctx) {
        Tensor src = y.input(1);
        boolean hasStart = y.inputs().size() > 2;
        Tensor start = hasStart ? y.input(2) : src; // without a start the binding is unused
        int axis = op.axis() + 4 - y.rank();
        long[] shape = Push.dims4(src.shape().dims());
        Push p = new Push().u(src.elements()).u4(shape).u(o.base(src)).u4(Push.strides4(src, shape))
                .u(o.base(y)).u4(Push.strides4(y, Push.dims4(y.shape().dims()))).u(axis).u(Push.dims4(y.shape().dims())[axis])
                .u(hasStart ? o.base(start) : 0).u(hasStart ? 1 : 0);
        Grid g = Grid.covering(src.elements(), LOCAL, ctx);
        return new Dispatch(Shader.WRITE_SLICE, new int[] {LOCAL}, List.of(o.binding(start), o.binding(src), o.binding(y)), p.words(), g.x(), g.y());
    }

    private static Dispatch keyMask(Tensor y, Op.KeyMask op, Operands o, VulkanContext ctx) {
        Push p = new Push().u(y.elements()).u(y.dim(0)).u(y.dim(1)).u(o.base(y.input(0))).u(o.base(y)).u(op.causal() ? 1 : 0);
        Grid g = Grid.covering(y.elements(), LOCAL, ctx);
        return new Dispatch(Shader.KEY_MASK, new int[] {LOCAL}, List.of(o.binding(y.input(0)), o.binding(y)), p.words(), g.x(), g.y());
    }
}
