package dev.audioengine.backend.vulkan;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

import java.util.List;

/** pad, cast and contiguous (one shader: a cast to the same dtype is a bit-exact copy). */
final class LayoutKernels {
    private static final int LOCAL = 256;

    private LayoutKernels() {}

    static boolean supports(Tensor n) {
        Tensor x = n.inputs().isEmpty() ? null : n.input(0);
        return switch (n.op()) {
            case Op.Cast c -> x.dtype() != DType.I8 && n.dtype() != DType.I8
                    && (x.dtype() == DType.F32 || n.dtype() == DType.F32) && (!x.dtype().isQuantized() || blockRows(x));
            case Op.Contiguous c -> x.dtype() != DType.I8 && (!x.dtype().isQuantized() || blockRows(x));
            case Op.Pad p -> x.dtype() == DType.F32 && n.dtype() == DType.F32;
            default -> false;
        };
    }

    /** Block formats are read by whole blocks: the last axis contiguous in whole blocks. */
    private static boolean blockRows(Tensor x) {
        return x.stride(-1) == 1 && x.dim(-1) % 32 == 0 && x.offset() % 32 == 0;
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        if (n.op() instanceof Op.Pad pad) return List.of(pad(n, pad, o, ctx));
        return List.of(convert(n, n.input(0), o, ctx));
    }

    private static Dispatch pad(Tensor y, Op.Pad op, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0);
        long[] shape = Push.dims4(y.shape().dims());
        long[] before = new long[4];
        System.arraycopy(op.before(), 0, before, 4 - op.before().length, op.before().length);
        Push p = new Push().u(y.elements()).u4(shape).u(o.base(x)).u4(Push.strides4(x, Push.dims4(x.shape().dims())))
                .u4(Push.dims4(x.shape().dims()));
        for (long b : before) p.s(b);
        p.f(op.value()).u(o.base(y));
        Grid g = Grid.covering(y.elements(), LOCAL, ctx);
        return new Dispatch(Shader.PAD, new int[] {LOCAL, op.mode().ordinal()}, List.of(o.binding(x), o.binding(y)), p.words(), g.x(), g.y());
    }

    private static Dispatch convert(Tensor y, Tensor x, Operands o, VulkanContext ctx) {
        DType to = y.dtype();
        long n = y.elements();
        long[] shape = Push.dims4(x.shape().dims());
        long yOffset = o.base(y), items, outBytes = 0;
        if (to.isQuantized()) {
            yOffset = yOffset / 32 * to.blockBytes();
            outBytes = to.bytesFor(n);
            items = (outBytes + 3) / 4;
            if (yOffset % 4 != 0) throw new IllegalStateException(y + " does not start on a 4-byte boundary inside its binding");
        } else if (to.blockBytes() == 2) {
            items = (n + 1) / 2;
            if (yOffset % 2 != 0) throw new IllegalStateException(y + " does not start on a 4-byte boundary inside its binding");
        } else {
            items = n;
        }
        Push p = new Push().u(n).u4(shape).u(o.base(x)).u4(Push.strides4(x, shape)).u(yOffset).u(items).u(outBytes);
        Grid g = Grid.covering(items, LOCAL, ctx);
        return new Dispatch(Shader.CAST, new int[] {LOCAL, x.dtype().ordinal(), to.ordinal()}, List.of(o.binding(x), o.binding(y)),
                p.words(), g.x(), g.y());
    }
}
