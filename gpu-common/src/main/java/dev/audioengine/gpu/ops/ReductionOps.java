package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/**
 * Ops that reduce along one axis, one thread block per row (the axis moved last in the
 * descriptor): layer_norm, rms_norm, softmax, sum/mean/max, argmax; and group_norm. kernels/reduction.cu.
 */
final class ReductionOps implements GpuOp {
    private static final String SRC = "reduction";

    @Override
    public Op.Family family() {
        return Op.Family.REDUCTION;
    }

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        Tensor x = node.input(0);
        if (x.dtype() != DType.F32 || x.rank() == 0) return false;
        // affine parameters are read as contiguous vectors
        for (int i = 1; i < node.inputs().size(); i++) {
            Tensor p = node.input(i);
            if (p.dtype() != DType.F32) return false;
            if (!(node.op() instanceof Op.Softmax) && !p.isContiguous()) return false;
        }
        return switch (node.op()) {
            case Op.GroupNorm g -> x.rank() >= 2;
            case Op.LayerNorm l -> true;
            case Op.RmsNorm r -> true;
            case Op.Softmax s -> true;
            case Op.Reduce r -> true;
            case Op.Argmax a -> true;
            default -> false;
        };
    }

    @Override
    public void bind(Tensor node, Binding b) {
        Tensor x = node.input(0);
        long y = b.ptr(node);
        switch (node.op()) {
            case Op.LayerNorm l -> {
                TensorDesc rows = TensorDesc.rows(x, -1);
                b.perRow(
                        SRC,
                        "ae_layer_norm",
                        rows.rowCount(),
                        b.args()
                                .ptr(y)
                                .ptr(b.ptr(x))
                                .desc(rows)
                                .ptr(b.ptrOrNull(node, 1))
                                .ptr(b.ptrOrNull(node, 2))
                                .f32(l.eps()));
            }
            case Op.RmsNorm r -> {
                TensorDesc rows = TensorDesc.rows(x, -1);
                b.perRow(
                        SRC,
                        "ae_rms_norm",
                        rows.rowCount(),
                        b.args()
                                .ptr(y)
                                .ptr(b.ptr(x))
                                .desc(rows)
                                .ptr(b.ptrOrNull(node, 1))
                                .f32(r.eps()));
            }
            case Op.Softmax s -> {
                TensorDesc rows = TensorDesc.rows(x, -1);
                boolean masked = node.inputs().size() > 1;
                TensorDesc mask = masked ? TensorDesc.broadcast(node.input(1), x.shape()) : rows;
                b.perRow(
                        SRC,
                        "ae_softmax",
                        rows.rowCount(),
                        b.args()
                                .ptr(y)
                                .ptr(b.ptr(x))
                                .desc(rows)
                                .ptr(masked ? b.ptr(node.input(1)) : 0)
                                .desc(mask)
                                .f32(s.scale()));
            }
            case Op.Reduce r -> {
                TensorDesc rows = TensorDesc.rows(x, r.axis());
                if (rows.n()[3] == 0) throw new IllegalArgumentException("reduce over an empty axis: " + node);
                b.perRow(
                        SRC,
                        "ae_reduce",
                        rows.rowCount(),
                        b.args().i32(r.kind().ordinal()).ptr(y).ptr(b.ptr(x)).desc(rows));
            }
            case Op.Argmax a -> {
                TensorDesc rows = TensorDesc.rows(x, a.axis());
                b.perRow(
                        SRC,
                        "ae_argmax",
                        rows.rowCount(),
                        b.args().ptr(y).ptr(b.ptr(x)).desc(rows));
            }
            case Op.GroupNorm g -> {
                long spatial = 1;
                for (int i = 2; i < x.rank(); i++) spatial *= x.dim(i);
                b.perRow(
                        SRC,
                        "ae_group_norm",
                        x.dim(0) * g.groups(),
                        b.args()
                                .ptr(y)
                                .ptr(b.ptr(x))
                                .desc(TensorDesc.of(x))
                                .ptr(b.ptrOrNull(node, 1))
                                .ptr(b.ptrOrNull(node, 2))
                                .i64(x.dim(1))
                                .i64(spatial)
                                .i32(g.groups())
                                .f32(g.eps())
                                .i32(x.isContiguous() ? 1 : 0));
            }
            default -> throw new IllegalArgumentException("not a reduction op: " + node);
        }
    }
}
