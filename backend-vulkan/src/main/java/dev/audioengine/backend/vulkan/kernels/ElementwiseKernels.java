package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Push;
import dev.audioengine.backend.vulkan.pipeline.Shader;
import java.util.List;

/** unary, scale, binary and snake: one thread per output element (the unary and binary shaders). */
final class ElementwiseKernels {
    static final int LOCAL = 256;
    static final int SCALE = 100, BIT_COPY = 101, SNAKE = 100, MAGNITUDE = 101;

    private ElementwiseKernels() {}

    static boolean supports(Tensor n) {
        return switch (n.op()) {
            case Op.Unary u -> allF32(n);
            case Op.Scale s -> allF32(n);
            case Op.Binary b -> allF32(n);
            case Op.Snake s -> allF32(n) && n.rank() == 3;
            default -> false;
        };
    }

    static boolean allF32(Tensor n) {
        if (n.dtype() != DType.F32) return false;
        for (Tensor in : n.inputs()) if (in.dtype() != DType.F32) return false;
        return true;
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        return switch (n.op()) {
            case Op.Unary u -> List.of(map(n, n.input(0), u.kind().ordinal(), u.alpha(), 1, 0, o, ctx, 0));
            case Op.Scale s -> List.of(map(n, n.input(0), SCALE, 0, s.scale(), s.bias(), o, ctx, 0));
            case Op.Binary b -> List.of(binary(n, b.kind().ordinal(), o, ctx));
            case Op.Snake s -> List.of(binary(n, SNAKE, o, ctx));
            default -> throw new IllegalArgumentException("not elementwise: " + n);
        };
    }

    /** y[c] = f(x[c]) over x's shape, y written at {@code yElementOffset} with y's contiguous strides. */
    static Dispatch map(
            Tensor y,
            Tensor x,
            int kind,
            float alpha,
            float scale,
            float bias,
            Operands o,
            VulkanContext ctx,
            long yElementOffset) {
        long[] shape = Push.dims4(x.shape().dims());
        long[] ys = y.shape().contiguousStrides();
        long[] yst = new long[4];
        int shift = 4 - y.rank();
        for (int a = 0; a < 4; a++) yst[a] = a < shift ? 0 : ys[a - shift];
        Push p = new Push()
                .u(x.elements())
                .u4(shape)
                .u(o.base(x))
                .u4(Push.strides4(x, shape))
                .u(o.base(y) + yElementOffset)
                .u4(yst)
                .f(alpha)
                .f(scale)
                .f(bias);
        Grid g = Grid.covering(x.elements(), LOCAL, ctx);
        return new Dispatch(
                Shader.UNARY, new int[] {LOCAL, kind}, List.of(o.binding(x), o.binding(y)), p.words(), g.x(), g.y());
    }

    private static Dispatch binary(Tensor n, int kind, Operands o, VulkanContext ctx) {
        long[] shape = Push.dims4(n.shape().dims());
        Tensor a = n.input(0), b = n.input(1);
        long[] bst;
        if (kind == SNAKE) { // alpha [C] runs along axis 1 of [B, C, T]
            bst = new long[] {0, 0, b.stride(0), 0};
        } else {
            bst = Push.strides4(b, shape);
        }
        Push p = new Push()
                .u(n.elements())
                .u4(shape)
                .u(o.base(a))
                .u4(Push.strides4(a, shape))
                .u(o.base(b))
                .u4(bst)
                .u(o.base(n));
        Grid g = Grid.covering(n.elements(), LOCAL, ctx);
        return new Dispatch(
                Shader.BINARY,
                new int[] {LOCAL, kind},
                List.of(o.binding(a), o.binding(b), o.binding(n)),
                p.words(),
                g.x(),
                g.y());
    }
}
