package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Push;
import dev.audioengine.backend.vulkan.pipeline.Shader;
import java.util.ArrayList;
import java.util.List;

/**
 * pad; cast and contiguous (one shader: a cast to the same dtype is a bit-exact copy); concat (a bit-copy
 * per piece through the unary shader); write_slice, an in-place write into a persistent tensor at a position
 * the shader reads from its I32 input (one, or one per batch element), so one recorded command buffer serves
 * every step.
 */
final class LayoutKernels {
    private static final int LOCAL = 256;

    private LayoutKernels() {}

    static boolean supports(Tensor n) {
        Tensor x = n.inputs().isEmpty() ? null : n.input(0);
        return switch (n.op()) {
            case Op.Cast c ->
                x.dtype() != DType.I8
                        && n.dtype() != DType.I8
                        && (x.dtype() == DType.F32 || n.dtype() == DType.F32)
                        && (!x.dtype().isQuantized() || blockRows(x))
                        && shadersDecode(x.dtype())
                        && shadersDecode(n.dtype());
            case Op.Contiguous c ->
                x.dtype() != DType.I8 && (!x.dtype().isQuantized() || blockRows(x)) && shadersDecode(x.dtype());
            case Op.Pad p -> x.dtype() == DType.F32 && n.dtype() == DType.F32;
            case Op.Concat c -> ElementwiseKernels.allF32(n);
            case Op.WriteSlice w -> n.dtype() == DType.F32 && n.input(1).dtype() == DType.F32 && n.rank() <= 4;
            default -> false;
        };
    }

    /**
     * Plain types, and every block type: common.glsl decodes and cast.comp encodes Q8_0, Q4_0, Q5_0, Q5_1, Q4_1 and
     * the k-quants Q6_K, Q4_K, Q5_K, Q3_K, Q2_K. A block type added to DType stays unsupported here until the shaders
     * know its layout, so this backend does not declare its weight capability and models load it as F32.
     */
    private static boolean shadersDecode(DType t) {
        return switch (t) {
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K -> true;
            default -> !t.isQuantized();
        };
    }

    /** Block formats are read by whole blocks (32 values, or a k-quant's 256): the last axis contiguous in them. */
    private static boolean blockRows(Tensor x) {
        int block = x.dtype().blockSize();
        return x.stride(-1) == 1 && x.dim(-1) % block == 0 && x.offset() % block == 0;
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        return switch (n.op()) {
            case Op.Pad pad -> List.of(pad(n, pad, o, ctx));
            case Op.Cast c -> List.of(convert(n, n.input(0), o, ctx));
            case Op.Contiguous c -> List.of(convert(n, n.input(0), o, ctx));
            case Op.Concat c -> concat(n, c.axis(), o, ctx);
            case Op.WriteSlice w -> List.of(writeSlice(n, w, o, ctx));
            default -> throw new IllegalArgumentException("not a layout op: " + n);
        };
    }

    private static Dispatch pad(Tensor y, Op.Pad op, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0);
        long[] shape = Push.dims4(y.shape().dims());
        long[] before = new long[4];
        System.arraycopy(op.before(), 0, before, 4 - op.before().length, op.before().length);
        Push p = new Push()
                .u(y.elements())
                .u4(shape)
                .u(o.base(x))
                .u4(Push.strides4(x, Push.dims4(x.shape().dims())))
                .u4(Push.dims4(x.shape().dims()));
        for (long b : before) p.s(b);
        p.f(op.value()).u(o.base(y));
        Grid g = Grid.covering(y.elements(), LOCAL, ctx);
        return new Dispatch(
                Shader.PAD,
                new int[] {LOCAL, op.mode().ordinal()},
                List.of(o.binding(x), o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }

    private static Dispatch convert(Tensor y, Tensor x, Operands o, VulkanContext ctx) {
        DType to = y.dtype();
        long n = y.elements();
        long[] shape = Push.dims4(x.shape().dims());
        long yOffset = o.base(y), items, outBytes = 0;
        if (to.isQuantized()) {
            yOffset = yOffset / to.blockSize() * to.blockBytes();
            outBytes = to.bytesFor(n);
            items = (outBytes + 3) / 4;
            if (yOffset % 4 != 0)
                throw new IllegalStateException(y + " does not start on a 4-byte boundary inside its binding");
        } else if (to.blockBytes() == 2) {
            items = (n + 1) / 2;
            if (yOffset % 2 != 0)
                throw new IllegalStateException(y + " does not start on a 4-byte boundary inside its binding");
        } else {
            items = n;
        }
        Push p = new Push()
                .u(n)
                .u4(shape)
                .u(o.base(x))
                .u4(Push.strides4(x, shape))
                .u(yOffset)
                .u(items)
                .u(outBytes);
        Grid g = Grid.covering(items, LOCAL, ctx);
        return new Dispatch(
                Shader.CAST,
                new int[] {LOCAL, x.dtype().ordinal(), to.ordinal()},
                List.of(o.binding(x), o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }

    /** One bit-copy per piece into its slice of the output. */
    private static List<Dispatch> concat(Tensor n, int axis, Operands o, VulkanContext ctx) {
        int ax = n.shape().normalizeAxis(axis);
        long stride = n.shape().contiguousStrides()[ax];
        List<Dispatch> out = new ArrayList<>();
        long at = 0;
        for (Tensor piece : n.inputs()) {
            if (piece.elements() > 0)
                out.add(ElementwiseKernels.map(n, piece, ElementwiseKernels.BIT_COPY, 0, 1, 0, o, ctx, at * stride));
            at += piece.dim(ax);
        }
        return out;
    }

    private static Dispatch writeSlice(Tensor y, Op.WriteSlice op, Operands o, VulkanContext ctx) {
        Tensor src = y.input(1);
        boolean hasStart = y.inputs().size() > 2;
        Tensor start = hasStart ? y.input(2) : src; // without a start the binding is unused
        int axis = op.axis() + 4 - y.rank();
        // one start per batch element (a batched decoder step). A batch of one keeps the single start's
        // behaviour: a negative start drops only the elements that fall before the axis' first position.
        boolean perBatch = hasStart && y.dim(0) > 1 && start.dim(0) == y.dim(0);
        long[] shape = Push.dims4(src.shape().dims());
        Push p = new Push()
                .u(src.elements())
                .u4(shape)
                .u(o.base(src))
                .u4(Push.strides4(src, shape))
                .u(o.base(y))
                .u4(Push.strides4(y, Push.dims4(y.shape().dims())))
                .u(axis)
                .u(Push.dims4(y.shape().dims())[axis])
                .u(hasStart ? o.base(start) : 0)
                .u(perBatch ? 2 : hasStart ? 1 : 0)
                .u(perBatch ? start.stride(0) : 0)
                .u(4 - y.rank());
        Grid g = Grid.covering(src.elements(), LOCAL, ctx);
        return new Dispatch(
                Shader.WRITE_SLICE,
                new int[] {LOCAL},
                List.of(o.binding(start), o.binding(src), o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }
}
