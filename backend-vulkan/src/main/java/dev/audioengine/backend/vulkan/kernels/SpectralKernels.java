package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Push;
import dev.audioengine.backend.vulkan.pipeline.Shader;
import java.util.List;

/** stft and istft as direct DFT sums (spectral.comp); magnitude through the binary shader. */
final class SpectralKernels {
    private static final int LOCAL = 64;

    private SpectralKernels() {}

    static boolean supports(Tensor n) {
        boolean f32 = n.dtype() == DType.F32 && n.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
        return switch (n.op()) {
            case Op.Stft s -> f32 && n.input(0).rank() == 2;
            // samples past the last frame have an empty window envelope: leave those to the CPU's error
            case Op.Istft s ->
                f32
                        && n.input(0).rank() == 4
                        && n.rank() == 2
                        && (s.center() ? s.nFft() / 2 : 0) + s.length()
                                <= (long) s.nFft()
                                        + (long) s.hop() * (n.input(0).dim(2) - 1);
            case Op.Magnitude m -> ElementwiseKernels.allF32(n) && n.input(0).dim(-1) == 2;
            default -> false;
        };
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        return switch (n.op()) {
            case Op.Stft s -> dft(n, o, ctx);
            case Op.Istft s -> dft(n, o, ctx);
            case Op.Magnitude m -> List.of(magnitude(n, o, ctx));
            default -> throw new IllegalArgumentException("not a spectral op: " + n);
        };
    }

    private static List<Dispatch> dft(Tensor n, Operands o, VulkanContext ctx) {
        Tensor x = n.input(0), w = n.input(1);
        Push p;
        long items;
        int inverse;
        if (n.op() instanceof Op.Stft s) {
            items = n.dim(0) * n.dim(1) * n.dim(2);
            p = new Push()
                    .u(items)
                    .u(n.dim(1))
                    .u(n.dim(2))
                    .u(s.nFft())
                    .u(s.hop())
                    .u(s.center() ? s.nFft() / 2 : 0)
                    .u(x.dim(1))
                    .u(o.base(x))
                    .u(x.stride(0))
                    .u(x.stride(1))
                    .u(o.base(w))
                    .u(w.stride(0))
                    .u(o.base(n));
            inverse = 0;
        } else {
            Op.Istft s = (Op.Istft) n.op();
            items = n.elements();
            p = new Push()
                    .u(items)
                    .u(x.dim(1))
                    .u(x.dim(2))
                    .u(s.nFft())
                    .u(s.hop())
                    .u(s.center() ? s.nFft() / 2 : 0)
                    .u(s.length())
                    .u(o.base(x))
                    .u4(x.strides())
                    .u(o.base(w))
                    .u(w.stride(0))
                    .u(o.base(n));
            inverse = 1;
        }
        Grid g = Grid.covering(items, LOCAL, ctx);
        return List.of(new Dispatch(
                Shader.SPECTRAL,
                new int[] {LOCAL, inverse},
                List.of(o.binding(x), o.binding(w), o.binding(n)),
                p.words(),
                g.x(),
                g.y()));
    }

    /** hypot(re, im): the binary shader reading z's two components as a and b. */
    private static Dispatch magnitude(Tensor n, Operands o, VulkanContext ctx) {
        Tensor z = n.input(0);
        long[] shape = Push.dims4(n.shape().dims());
        long[] zst = new long[4];
        int shift = 4 - n.rank();
        for (int a = shift; a < 4; a++) zst[a] = z.dim(a - shift) == 1 ? 0 : z.stride(a - shift);
        Push p = new Push()
                .u(n.elements())
                .u4(shape)
                .u(o.base(z))
                .u4(zst)
                .u(o.base(z) + z.stride(-1))
                .u4(zst)
                .u(o.base(n));
        Grid g = Grid.covering(n.elements(), ElementwiseKernels.LOCAL, ctx);
        return new Dispatch(
                Shader.BINARY,
                new int[] {ElementwiseKernels.LOCAL, ElementwiseKernels.MAGNITUDE},
                List.of(o.binding(z), o.binding(z), o.binding(n)),
                p.words(),
                g.x(),
                g.y());
    }
}
