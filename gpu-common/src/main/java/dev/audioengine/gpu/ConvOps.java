package dev.audioengine.gpu;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

import java.util.List;

/**
 * conv1d (a dedicated depthwise kernel when groups == in == out channels, else im2col + a library
 * GEMM batched over groups accumulating onto the bias, or a direct kernel when the column buffer
 * would exceed {@link #MAX_COLUMN_BYTES}) and conv_transpose1d lowered to GEMM + col2im (CONV_TRANSPOSE1D_COL2IM): per batch item, one
 * library GEMM (cuBLASLt, hipBLASLt) batched over groups makes cols = w_g^T x_g [coutPer*K, T], then ae_col2im_1d gathers
 * the taps of each output. Should there be no library, or should it offer no algorithm, a direct gather kernel computes it.
 * kernels/linear.cu.
 */
final class ConvOps implements GpuOp {
    private static final String SRC = "linear";
    private static final String SRC_LAYOUT = "layout";
    /** Largest im2col buffer a conv1d may use; beyond it the direct kernel runs instead. */
    static final long MAX_COLUMN_BYTES = 256L << 20;

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
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
            case Op.Conv1d c -> {
                if (!im2col(node, c, b, biasPtr, biasStride)) {
                    b.grid1d(SRC, "ae_conv1d", n, a.i64(batch).i64(cin).i64(t).i64(cout).i64(k).i64(tout)
                            .i32(c.stride()).i32(c.padding()).i32(c.dilation()).i32(c.groups()));
                }
            }
            case Op.ConvTranspose1d c -> {
                if (!col2im(node, c, b, biasPtr, biasStride)) {
                    b.grid1d(SRC, "ae_conv_transpose1d", n, a.i64(batch).i64(cin).i64(t).i64(cout).i64(k).i64(tout)
                            .i32(c.stride()).i32(c.padding()).i32(c.dilation()).i32(c.groups()));
                }
            }
            default -> throw new IllegalArgumentException("not a convolution: " + node);
        }
    }

    /** Binds GEMM + col2im; false (nothing bound) when the GEMM library has no algorithm for the shape. */
    private static boolean col2im(Tensor node, Op.ConvTranspose1d c, Binding b, long biasPtr, long biasStride) {
        Tensor x = node.input(0), w = node.input(1);
        if (b.backend.blas() == null || !w.isContiguous()) return false;
        long batch = x.dim(0), cin = x.dim(1), t = x.dim(2), cout = node.dim(1), k = w.dim(2), tout = node.dim(2);
        int groups = c.groups();
        long cinPer = cin / groups, p = (cout / groups) * k;
        if (batch == 0 || t == 0 || p == 0 || cinPer == 0) return false;
        // x per batch item as column-major [T, cin] (unit stride along time), else a contiguous copy first
        long xPtr = b.ptr(x), xsB = x.stride(0), xsC = x.stride(1);
        if (x.stride(2) != 1 || (cin > 1 && xsC < t)) {
            long copy = b.scratch(4 * x.elements());
            b.grid1d(SRC_LAYOUT, "ae_copy", x.elements(), b.args().i32(4).i64(x.elements()).ptr(copy)
                    .desc(TensorDesc.contiguous(x.shape())).ptr(xPtr).desc(TensorDesc.of(x)));
            xPtr = copy;
            xsB = cin * t;
            xsC = t;
        }
        long lda = cin > 1 ? xsC : t;
        long cols = b.scratch(4 * batch * groups * p * t);
        long wPtr = b.ptr(w);
        // column-major: C'[T, P] = X'[T, cinPer] (opA = N) . W'[cinPer, P] (W stored [cinPer, P] row-major: opB = T)
        GpuBlas.Shape shape = new GpuBlas.Shape(DType.F32, DType.F32, false, false, true, t, p, cinPer, lda, p, t, groups,
                cinPer * xsC, cinPer * p, p * t, GpuBlas.alignment(xPtr), GpuBlas.alignment(wPtr), GpuBlas.alignment(cols));
        for (long bi = 0; bi < batch; bi++) {
            long xb = xPtr + 4 * bi * xsB, cb = cols + 4 * bi * groups * p * t;
            GpuBlas.Shape s = new GpuBlas.Shape(shape.ab(), shape.d(), shape.fastF32(), shape.transA(), shape.transB(), shape.m(),
                    shape.n(), shape.k(), shape.lda(), shape.ldb(), shape.ldd(), shape.batch(), shape.strideA(), shape.strideB(),
                    shape.strideD(), GpuBlas.alignment(xb), shape.alignB(), GpuBlas.alignment(cb));
            GpuBlas lt = b.backend.blas();
            GpuBlas.Plan plan = lt.plan(s);
            if (plan == null) return false;
            b.add("gemm", stream -> lt.run(plan, xb, wPtr, cb, stream, false));
        }
        b.grid1d(SRC, "ae_col2im_1d", node.elements(), b.args().ptr(b.ptr(node)).ptr(cols).ptr(biasPtr).i64(biasStride)
                .i64(batch).i64(cout).i64(t).i64(k).i64(tout).i32(c.stride()).i32(c.padding()).i32(c.dilation()).i32(groups));
        return true;
    }

    /** Binds im2col + GEMM for conv1d; false (nothing bound) when it does not apply. */
    private static boolean im2col(Tensor node, Op.Conv1d c, Binding b, long biasPtr, long biasStride) {
        Tensor x = node.input(0), w = node.input(1);
        if (b.backend.blas() == null || !w.isContiguous()) return false;
        long batch = x.dim(0), cin = x.dim(1), t = x.dim(2), cout = node.dim(1), k = w.dim(2), tout = node.dim(2);
        int groups = c.groups();
        long cinPer = cin / groups, coutPer = cout / groups, rows = cinPer * k;
        long colBytes = 4 * batch * cin * k * tout;
        if (batch == 0 || tout == 0 || coutPer == 0 || rows == 0 || colBytes > MAX_COLUMN_BYTES) return false;
        long cols = b.scratch(colBytes), wPtr = b.ptr(w), yPtr = b.ptr(node);
        List<GpuBlas.Plan> plans = new java.util.ArrayList<>();
        for (long bi = 0; bi < batch; bi++) {
            long cb = cols + 4 * bi * cin * k * tout, yb = yPtr + 4 * bi * cout * tout;
            // column-major: Y'[Tout, coutPer] += cols'[Tout, cinPer*K] (opA = N) . W'[cinPer*K, coutPer] (opB = N)
            GpuBlas.Plan plan = b.backend.blas().plan(new GpuBlas.Shape(DType.F32, DType.F32, false, false, false, tout, coutPer, rows,
                    tout, rows, tout, groups, rows * tout, coutPer * rows, coutPer * tout,
                    GpuBlas.alignment(cb), GpuBlas.alignment(wPtr), GpuBlas.alignment(yb)));
            if (plan == null) return false;
            plans.add(plan);
        }
        b.grid2d(SRC, "ae_im2col_1d", batch * cin * k, tout, b.args().ptr(cols).ptr(b.ptr(x)).desc(TensorDesc.of(x))
                .i64(batch).i64(cin).i64(t).i64(k).i64(tout).i32(c.stride()).i32(c.padding()).i32(c.dilation()));
        b.grid2d(SRC, "ae_fill_bias", batch * cout, tout, b.args().ptr(yPtr).ptr(biasPtr).i64(biasStride).i64(batch).i64(cout).i64(tout));
        GpuBlas lt = b.backend.blas();
        for (int bi = 0; bi < batch; bi++) {
            GpuBlas.Plan plan = plans.get(bi);
            long cb = cols + 4L * bi * cin * k * tout, yb = yPtr + 4L * bi * cout * tout;
            b.add("gemm", stream -> lt.run(plan, cb, wPtr, yb, stream, true));
        }
        return true;
    }
}
