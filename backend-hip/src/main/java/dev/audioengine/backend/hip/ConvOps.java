package dev.audioengine.backend.hip;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/**
 * conv1d (a dedicated depthwise kernel when groups == in == out channels, else a direct kernel) and
 * conv_transpose1d lowered to GEMM + col2im (CONV_TRANSPOSE1D_COL2IM, the capability HIP starts with):
 * one ae_matmul over every (batch item, group) makes cols = w_g^T x_g [coutPer*K, T], then ae_col2im_1d
 * gathers the taps of each output. Weights that are not contiguous, or grids beyond the launch limits,
 * take the direct gather kernel. kernels/linear.cu.
 */
final class ConvOps implements HipOp {
    private static final String SRC = "linear";

    @Override
    public boolean supports(Tensor node) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32) && node.input(0).rank() == 3 && node.input(1).rank() == 3;
    }

    static boolean isDepthwise(Tensor node) {
        return node.op() instanceof Op.Conv1d c && c.groups() > 1 && c.groups() == node.input(0).dim(1) && c.groups() == node.dim(1);
    }

    @Override
    public void bind(Tensor node, Binding b) {
        Tensor x = node.input(0), w = node.input(1);
        Tensor bias = node.inputs().size() > 2 ? node.input(2) : null;
        long biasPtr = bias == null ? 0 : b.ptr(bias), biasStride = bias == null ? 0 : bias.stride(0);
        long batch = x.dim(0), cin = x.dim(1), t = x.dim(2), cout = node.dim(1), tout = node.dim(2), k = w.dim(2);
        long n = node.elements();
        LaunchArgs a = b.args().ptr(b.ptr(node)).ptr(b.ptr(x)).desc(TensorDesc.of(x)).ptr(b.ptr(w)).desc(TensorDesc.of(w))
                .ptr(biasPtr).i64(biasStride);
        switch (node.op()) {
            case Op.Conv1d c when isDepthwise(node) -> b.grid1d(SRC, "ae_conv1d_depthwise", n,
                    a.i64(batch).i64(cin).i64(t).i64(k).i64(tout).i32(c.stride()).i32(c.padding()).i32(c.dilation()));
            case Op.Conv1d c -> b.grid1d(SRC, "ae_conv1d", n, a.i64(batch).i64(cin).i64(t).i64(cout).i64(k).i64(tout)
                    .i32(c.stride()).i32(c.padding()).i32(c.dilation()).i32(c.groups()));
            case Op.ConvTranspose1d c -> {
                if (!col2im(node, c, b, biasPtr, biasStride)) {
                    b.grid1d(SRC, "ae_conv_transpose1d", n, a.i64(batch).i64(cin).i64(t).i64(cout).i64(k).i64(tout)
                            .i32(c.stride()).i32(c.padding()).i32(c.dilation()).i32(c.groups()));
                }
            }
            default -> throw new IllegalArgumentException("not a convolution: " + node);
        }
    }

    /**
     * ae_matmul's operands for cols[b, g, p, t] = Σ_c W[g*cinPer + c, p] · x[b, g*cinPer + c, t] (W contiguous
     * [Cin, P], x with strides xs*), written as its y[b0, b1, m, n] = Σ_k X[b0, b1, m, k] · Wt[b0, b1, n, k]:
     * X is W (m = p, unit stride; k = c, stride P; shared by every batch item), Wt is x (n = t, k = c).
     * y comes out contiguous [B, G, P, T], the layout ae_col2im_1d reads.
     */
    static TensorDesc[] col2imOperands(long batch, long groups, long cinPer, long p, long t, long xs0, long xs1, long xs2) {
        TensorDesc wAsX = new TensorDesc(new long[] {batch, groups, p, cinPer}, new long[] {0, cinPer * p, 1, p});
        TensorDesc xAsW = new TensorDesc(new long[] {batch, groups, t, cinPer}, new long[] {xs0, cinPer * xs1, xs2, xs1});
        return new TensorDesc[] {wAsX, xAsW};
    }

    /** Binds GEMM + col2im; false (nothing bound) when the weights are not contiguous or the grid is too large. */
    private static boolean col2im(Tensor node, Op.ConvTranspose1d c, Binding b, long biasPtr, long biasStride) {
        Tensor x = node.input(0), w = node.input(1);
        if (!w.isContiguous()) return false;
        long batch = x.dim(0), cin = x.dim(1), t = x.dim(2), cout = node.dim(1), k = w.dim(2), tout = node.dim(2);
        int groups = c.groups();
        long cinPer = cin / groups, p = (cout / groups) * k;
        if (batch == 0 || t == 0 || p == 0 || cinPer == 0) return false;
        if (batch * groups > MatMulOp.MAX_GRID_YZ || (p + MatMulOp.TILE - 1) / MatMulOp.TILE > MatMulOp.MAX_GRID_YZ) return false;
        long cols = b.scratch(4 * batch * groups * p * t);
        TensorDesc[] operands = col2imOperands(batch, groups, cinPer, p, t, x.stride(0), x.stride(1), x.stride(2));
        MatMulOp.gemm(b, cols, b.ptr(w), operands[0], b.ptr(x), DType.F32, operands[1], p, t, cinPer);
        b.grid1d(SRC, "ae_col2im_1d", node.elements(), b.args().ptr(b.ptr(node)).ptr(cols).ptr(biasPtr).i64(biasStride)
                .i64(batch).i64(cout).i64(t).i64(k).i64(tout).i32(c.stride()).i32(c.padding()).i32(c.dilation()).i32(groups));
        return true;
    }
}
