package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Push;
import dev.audioengine.backend.vulkan.pipeline.Shader;
import java.util.List;

/**
 * Reductions and row-wise normalizations: sum, mean, max, argmax, softmax, layer_norm,
 * rms_norm, group_norm; one workgroup per row (see reduction.glsl). Uses the subgroup-arithmetic
 * variant where the device reports subgroup arithmetic for compute shaders.
 */
final class ReductionKernels {
    private static final int LOCAL = 256;
    private static final int SUM = 0,
            MEAN = 1,
            MAX = 2,
            ARGMAX = 3,
            SOFTMAX = 4,
            LAYER_NORM = 5,
            RMS_NORM = 6,
            GROUP_NORM = 7;

    private ReductionKernels() {}

    static boolean supports(Tensor n) {
        boolean f32In = n.input(0).dtype() == DType.F32 && n.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
        return switch (n.op()) {
            case Op.Reduce r -> f32In && n.dtype() == DType.F32 && n.input(0).rank() >= 1;
            case Op.Argmax a -> f32In && n.dtype() == DType.I32 && n.input(0).rank() >= 1;
            case Op.Softmax s -> f32In && n.dtype() == DType.F32 && n.rank() >= 1;
            case Op.LayerNorm l -> f32In && n.dtype() == DType.F32 && n.rank() >= 1;
            case Op.RmsNorm r -> f32In && n.dtype() == DType.F32 && n.rank() >= 1;
            case Op.GroupNorm g -> f32In && n.dtype() == DType.F32 && n.rank() >= 2 && n.rank() <= 4;
            default -> false;
        };
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        return List.of(
                switch (n.op()) {
                    case Op.Reduce r -> rows(n, r.kind().ordinal(), r.axis(), 0f, o, ctx);
                    case Op.Argmax a -> rows(n, ARGMAX, a.axis(), 0f, o, ctx);
                    case Op.Softmax s -> rows(n, SOFTMAX, -1, s.scale(), o, ctx);
                    case Op.LayerNorm l -> rows(n, LAYER_NORM, -1, l.eps(), o, ctx);
                    case Op.RmsNorm r -> rows(n, RMS_NORM, -1, r.eps(), o, ctx);
                    case Op.GroupNorm g -> groupNorm(n, g, o, ctx);
                    default -> throw new IllegalArgumentException("not a reduction op: " + n);
                });
    }

    private static Shader shader(VulkanContext ctx) {
        return ctx.limits.subgroupArithmetic() ? Shader.REDUCTION_SUBGROUP : Shader.REDUCTION;
    }

    /** Optional inputs follow x in this order: the mask (softmax) or gamma then beta (norms). */
    private static Dispatch rows(Tensor y, int kind, int axis, float param, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0);
        int ax = x.shape().normalizeAxis(axis) + 4 - x.rank();
        long[] dims = Push.dims4(x.shape().dims());
        long[] st = Push.strides4(x, dims);
        long[] others = new long[3], ost = new long[3];
        for (int a = 0, k = 0; a < 4; a++)
            if (a != ax) {
                others[k] = dims[a];
                ost[k++] = st[a];
            }
        long length = dims[ax], rows = x.elements() / Math.max(1, length);
        Tensor mask = kind == SOFTMAX && y.inputs().size() > 1 ? y.input(1) : null;
        Tensor gamma = (kind == LAYER_NORM || kind == RMS_NORM) && y.inputs().size() > 1 ? y.input(1) : null;
        Tensor beta = kind == LAYER_NORM && y.inputs().size() > 2 ? y.input(2) : null;
        Push p = new Push()
                .u(rows)
                .u(length)
                .u(others[0])
                .u(others[1])
                .u(others[2])
                .u(o.base(x))
                .u(ost[0])
                .u(ost[1])
                .u(ost[2])
                .u(st[ax])
                .u(o.base(y))
                .f(param);
        if (mask != null) {
            long[] mst = Push.strides4(mask, dims);
            long[] mo = new long[3];
            for (int a = 0, k = 0; a < 4; a++) if (a != ax) mo[k++] = mst[a];
            p.u(o.base(mask)).u(mo[0]).u(mo[1]).u(mo[2]).u(mst[ax]);
        } else {
            p.u(0).u(0).u(0).u(0).u(0);
        }
        affine(p, gamma, beta, mask != null, o);
        return dispatch(y, rows, p, x, mask, gamma, beta, kind, o, ctx);
    }

    private static void affine(Push p, Tensor gamma, Tensor beta, boolean mask, Operands o) {
        p.u(gamma == null ? 0 : o.base(gamma))
                .u(gamma == null ? 0 : gamma.stride(0))
                .u(beta == null ? 0 : o.base(beta))
                .u(beta == null ? 0 : beta.stride(0))
                .u((mask ? 1 : 0) | (gamma != null ? 2 : 0) | (beta != null ? 4 : 0));
    }

    private static Dispatch dispatch(
            Tensor y,
            long rows,
            Push p,
            Tensor x,
            Tensor mask,
            Tensor gamma,
            Tensor beta,
            int kind,
            Operands o,
            VulkanContext ctx) {
        Dispatch.Binding bx = o.binding(x);
        Grid g = Grid.of(rows, ctx);
        return new Dispatch(
                shader(ctx),
                new int[] {LOCAL, kind},
                List.of(
                        bx,
                        mask == null ? bx : o.binding(mask),
                        gamma == null ? bx : o.binding(gamma),
                        beta == null ? bx : o.binding(beta),
                        o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }

    private static Dispatch groupNorm(Tensor y, Op.GroupNorm op, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0);
        Tensor gamma = y.inputs().size() > 1 ? y.input(1) : null,
                beta = y.inputs().size() > 2 ? y.input(2) : null;
        long b = x.dim(0), c = x.dim(1);
        long s2 = x.rank() == 4 ? x.dim(2) : 1, s3 = x.rank() >= 3 ? x.dim(-1) : 1;
        long st2 = x.rank() == 4 && x.dim(2) != 1 ? x.stride(2) : 0,
                st3 = x.rank() >= 3 && x.dim(-1) != 1 ? x.stride(-1) : 0;
        long per = c / op.groups(), spatial = s2 * s3, rows = b * op.groups();
        Push p = new Push()
                .u(rows)
                .u(per * spatial)
                .u(op.groups())
                .u(per)
                .u(spatial)
                .u(o.base(x))
                .u(x.stride(0))
                .u(x.stride(1))
                .u(st2)
                .u(st3)
                .u(o.base(y))
                .f(op.eps())
                .u(s3)
                .u(0)
                .u(0)
                .u(0)
                .u(0);
        affine(p, gamma, beta, false, o);
        return dispatch(y, rows, p, x, null, gamma, beta, GROUP_NORM, o, ctx);
    }
}
