package dev.audioengine.backend.cuda;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/**
 * conv1d (a dedicated depthwise kernel when groups == in == out channels, else a direct kernel)
 * and conv_transpose1d (each output gathers the inputs that scatter into it): kernels/linear.cu.
 */
final class ConvOps implements CudaOp {
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
            case Op.ConvTranspose1d c -> b.grid1d(SRC, "ae_conv_transpose1d", n, a.i64(batch).i64(cin).i64(t).i64(cout).i64(k)
                    .i64(tout).i32(c.stride()).i32(c.padding()).i32(c.dilation()).i32(c.groups()));
            default -> throw new IllegalArgumentException("not a convolution: " + node);
        }
    }
}
