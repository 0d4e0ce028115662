package dev.audioengine.backend.hip;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/**
 * y[..., m, n] = Σ_k x[..., m, k]·w[..., n, k] on the engine's own GEMM kernels (linear.cu): no vendor
 * GEMM library is bound in this build (the run summary's "GEMM: engine kernels"). Q8_0/Q4_0 weights run
 * ae_matvec_q for up to 16 rows of x (one scale per 32-value block); everything else, any weight dtype and
 * any strides, runs the tiled ae_matmul, which decodes weights as it loads them.
 */
final class MatMulOp implements HipOp {
    private static final String SRC = "linear";
    static final int TILE = 16;
    /** Up to this many rows of x, quantized weights use the block-decoding mat-vec kernel (decode-style projections). */
    static final long MATVEC_MAX_ROWS = 16;
    private static final int MATVEC_THREADS = 128;
    /** hipModuleLaunchKernel's limit on the y and z grid dimensions. */
    static final long MAX_GRID_YZ = 65535;

    @Override
    public boolean supports(Tensor node) {
        Tensor w = node.input(1);
        if (node.input(0).dtype() != DType.F32 || !(w.dtype().isFloat() || w.dtype().isQuantized()) || node.rank() > 4) return false;
        if (w.dtype().isQuantized() && w.stride(-1) != 1) return false;
        long m = node.input(0).dim(-2), batches = node.elements() / Math.max(1, m * w.dim(-2));
        return (m + TILE - 1) / TILE <= MAX_GRID_YZ && batches <= MAX_GRID_YZ;
    }

    /** An operand as [B0, B1, rows, K] under the output's batch dims (stride 0 on broadcast batch axes). */
    static TensorDesc operand(Tensor t, long[] outDims) {
        int outBatch = outDims.length - 2, tBatch = t.rank() - 2;
        long[] n = {1, 1, t.dim(-2), t.dim(-1)}, s = {0, 0, t.stride(-2), t.stride(-1)};
        for (int i = 0; i < outBatch; i++) {
            int slot = 2 - outBatch + i, j = i - (outBatch - tBatch);
            n[slot] = outDims[i];
            s[slot] = j < 0 || t.dim(j) == 1 ? 0 : t.stride(j);
        }
        return new TensorDesc(n, s);
    }

    @Override
    public void bind(Tensor node, Binding b) {
        Tensor x = node.input(0), w = node.input(1);
        long[] out = node.shape().dims();
        TensorDesc xd = operand(x, out), wd = operand(w, out);
        long m = x.dim(-2), n = w.dim(-2), k = x.dim(-1);
        if (node.elements() == 0) return;
        long rows = xd.n()[0] * xd.n()[1] * m;
        boolean wPlain = wd.s()[0] == 0 && wd.s()[1] == 0 && wd.s()[3] == 1 && (n == 1 || wd.s()[2] == k);
        if (w.dtype().isQuantized() && rows <= MATVEC_MAX_ROWS && wPlain && xd.s()[3] == 1) {
            b.launch(SRC, "ae_matvec_q", Math.toIntExact(n), Math.toIntExact(rows), 1, MATVEC_THREADS, 1, 1, 0,
                    b.args().ptr(b.ptr(node)).ptr(b.ptr(x)).desc(xd).ptr(b.ptr(w)).i32(w.dtype().ordinal()).i64(n).i64(k));
            return;
        }
        gemm(b, b.ptr(node), b.ptr(x), xd, b.ptr(w), w.dtype(), wd, m, n, k);
    }

    /** ae_matmul: y [B0, B1, M, N] contiguous = x [B0, B1, M, K] (F32) times w [B0, B1, N, K]^T (any dtype), both strided. */
    static void gemm(Binding b, long y, long x, TensorDesc xd, long w, DType wt, TensorDesc wd, long m, long n, long k) {
        long batches = xd.n()[0] * xd.n()[1];
        LaunchArgs a = b.args().ptr(y).ptr(x).desc(xd).ptr(w).i32(wt.ordinal()).desc(wd).i64(m).i64(n).i64(k).i64(xd.n()[1]);
        b.launch(SRC, "ae_matmul", Math.toIntExact((n + TILE - 1) / TILE), Math.toIntExact((m + TILE - 1) / TILE),
                Math.toIntExact(batches), TILE, TILE, 1, 0, a);
    }
}
