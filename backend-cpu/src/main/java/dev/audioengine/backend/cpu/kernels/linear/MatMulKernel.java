package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;

/**
 * y[..., m, n] = Σ_k x[..., m, k] · w[..., n, k] with broadcast batch axes, through {@link Gemm}.
 * x is F32 with any strides; w is F32, F16, BF16 (any strides) or a block type (contiguous rows,
 * decoded block by block while packing or streaming). When w is shared by every batch and x's
 * batches are evenly spaced rows, the batches fold into one taller product. A constant weight
 * used by products of few rows is packed once here, at compile time ({@link PackedPanels}); a constant
 * quantized or half-float weight of taller products is decoded once per backend ({@link PanelCache}).
 */
public final class MatMulKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        DType w = node.input(1).dtype();
        return node.input(0).dtype() == DType.F32
                && w != DType.I32
                && w != DType.I8
                && node.rank() <= 4
                && node.input(0).rank() <= 4
                && node.input(1).rank() <= 4;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor x = in[0], w = in[1];
        long[] od = out.dims();
        int m = (int) od[2], n = (int) od[3], k = (int) x.dims()[3];
        long[] xs = batchStrides(x), ws = batchStrides(w);
        long xrs = x.strides()[2], xcs = x.strides()[3], wrs = w.strides()[2], wcs = w.strides()[3];
        boolean fold = ws[0] == 0
                && ws[1] == 0
                && m > 0
                && (od[1] == 1 || xs[1] == m * xrs)
                && (od[0] == 1 || xs[0] == od[1] * xs[1]);
        int batches = (int) (od[0] * od[1]);
        int rowsPerProduct = fold ? m * batches : m;
        Gemm gemm = new Gemm(ctx.pool(), rowsPerProduct, n, k, ctx.scratch());
        boolean sharedWeight = ws[0] == 0 && ws[1] == 0;
        PackedPanels packed = null;
        if (sharedWeight && PackedPanels.worthPacking(node.input(1), rowsPerProduct, n, k))
            packed = ctx.panels().sharedOrOwn(w, n, k, wrs, wcs);
        else if (sharedWeight && PanelCache.worthCaching(node.input(1), rowsPerProduct))
            packed = ctx.panels().panels(w, n, k, wrs, wcs);
        if (fold) {
            MatrixSource a = new TensorMatrix(x, 0, rowsPerProduct, k, xrs, xcs);
            MatrixSource b = new TensorMatrix(w, 0, n, k, wrs, wcs);
            MatrixSink c = new MatrixSink.Segment(out.segment(), out.base(), n);
            PackedPanels panels = packed;
            if (panels != null) return () -> gemm.multiply(a, panels, c);
            return () -> gemm.multiply(a, b, c);
        }
        MatrixSource[] as = new MatrixSource[batches], bs = new MatrixSource[batches];
        MatrixSink[] cs = new MatrixSink[batches];
        for (int i = 0; i < batches; i++) {
            long i0 = i / od[1], i1 = i % od[1];
            as[i] = new TensorMatrix(x, i0 * xs[0] + i1 * xs[1], m, k, xrs, xcs);
            bs[i] = new TensorMatrix(w, i0 * ws[0] + i1 * ws[1], n, k, wrs, wcs);
            cs[i] = new MatrixSink.Segment(out.segment(), out.base() + (long) i * m * n * 4, n);
        }
        PackedPanels panels = packed;
        if (panels != null)
            return () -> {
                for (int i = 0; i < batches; i++) gemm.multiply(as[i], panels, cs[i]);
            };
        return () -> {
            for (int i = 0; i < batches; i++) gemm.multiply(as[i], bs[i], cs[i]);
        };
    }

    /** Element strides of the two batch axes, 0 where the operand broadcasts. */
    private static long[] batchStrides(CpuTensor t) {
        long[] s = new long[2];
        for (int i = 0; i < 2; i++) s[i] = t.dims()[i] == 1 ? 0 : t.strides()[i];
        return s;
    }
}
