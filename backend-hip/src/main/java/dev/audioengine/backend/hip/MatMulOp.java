package dev.audioengine.backend.hip;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/**
 * y[..., m, n] = Σ_k x[..., m, k]·w[..., n, k]. With {@code hip.hipblaslt=on}, F32/F16/BF16 weights go to
 * hipBLASLt as on CUDA: F32 as it is; F16/BF16 weights with x split into a rounded high part and the
 * rounded remainder (two GEMMs into the same F32 result, so activations keep about F32 precision),
 * accumulating in F32. Otherwise, and for what hipBLASLt cannot express, the engine's own kernels
 * (linear.cu): Q8_0/Q4_0 weights run ae_matvec_q for up to 16 rows of x (one scale per 32-value block);
 * everything else, any weight dtype and any strides, runs the tiled ae_matmul, which decodes weights as it
 * loads them.
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
        if (w.dtype().isFloat() && b.backend.hipblaslt() != null && k > 0 && library(node, b, xd, wd, m, n, k)) return;
        long rows = xd.n()[0] * xd.n()[1] * m;
        boolean wPlain = wd.s()[0] == 0 && wd.s()[1] == 0 && wd.s()[3] == 1 && (n == 1 || wd.s()[2] == k);
        if (w.dtype().isQuantized() && rows <= MATVEC_MAX_ROWS && wPlain && xd.s()[3] == 1) {
            b.launch(SRC, "ae_matvec_q", Math.toIntExact(n), Math.toIntExact(rows), 1, MATVEC_THREADS, 1, 1, 0,
                    b.args().ptr(b.ptr(node)).ptr(b.ptr(x)).desc(xd).ptr(b.ptr(w)).i32(w.dtype().ordinal()).i64(n).i64(k));
            return;
        }
        gemm(b, b.ptr(node), b.ptr(x), xd, b.ptr(w), w.dtype(), wd, m, n, k);
    }

    /** {count, stride} when the two batch axes walk memory with one stride; null when they do not. */
    static long[] collapseBatch(TensorDesc d) {
        long b0 = d.n()[0], b1 = d.n()[1], s0 = d.s()[0], s1 = d.s()[1];
        if (b0 == 1) return new long[] {b1, b1 == 1 ? 0 : s1};
        if (b1 == 1) return new long[] {b0, s0};
        return s0 == b1 * s1 ? new long[] {b0 * b1, s1} : null;
    }

    /** Binds the hipBLASLt path (the CUDA backend's cuBLASLt lowering); false when this layout needs the kernels instead. */
    private static boolean library(Tensor node, Binding b, TensorDesc xd, TensorDesc wd, long m, long n, long k) {
        DType wt = node.input(1).dtype();
        long batches = xd.n()[0] * xd.n()[1];
        // weights: K-contiguous rows (transposed in column-major terms) or N-contiguous columns
        int transA;
        long lda;
        if (wd.s()[3] == 1 || k == 1) { transA = HipBlasLt.OP_T; lda = Math.max(k, n == 1 ? k : wd.s()[2]); }
        else if (wd.s()[2] == 1 || n == 1) { transA = HipBlasLt.OP_N; lda = Math.max(n, k == 1 ? n : wd.s()[3]); }
        else return false;
        boolean wBatched = wd.s()[0] != 0 || wd.s()[1] != 0;
        long[] wBatch = wBatched ? collapseBatch(wd) : null;
        if (wBatched && wBatch == null) return false;

        long xPtr = b.ptr(node.input(0));
        long[] xBatch = collapseBatch(xd);
        // F32 x read in place: unit stride along k and one row stride (ld >= k) over every row it feeds
        long ldb = -1, strideB = 0;
        if (wt == DType.F32 && xd.s()[3] == 1) {
            long rowStride = m == 1 ? k : xd.s()[2];
            if (wBatched) {
                if (xBatch != null && rowStride >= k) { ldb = rowStride; strideB = xBatch[1]; }
            } else if (batches == 1) {
                if (rowStride >= k) ldb = rowStride;
            } else if (xBatch != null && (m == 1 || xBatch[1] == m * rowStride)) {
                long r = m == 1 ? xBatch[1] : rowStride;
                if (r >= k) ldb = r;
            }
        }
        int abType = switch (wt) {
            case F16 -> HipBlasLt.HIP_R_16F;
            case BF16 -> HipBlasLt.HIP_R_16BF;
            default -> HipBlasLt.HIP_R_32F;
        };
        long xLo = 0;
        if (ldb < 0) {
            // round (F16/BF16: high part and remainder) or copy (F32) x into a contiguous [batches, m, k] scratch of the weight's type
            long count = batches * m * k;
            long scratch = b.scratch(count * 4);
            if (wt == DType.F32) {
                b.grid1d("layout", "ae_copy", count, b.args().i32(4).i64(count).ptr(scratch)
                        .desc(TensorDesc.contiguous(dev.audioengine.api.tensor.Shape.of(xd.n()))).ptr(xPtr).desc(xd));
            } else {
                xLo = scratch + 2 * count;
                b.grid1d("layout", "ae_narrow_rows", count, b.args().i32(wt.ordinal()).i64(count).ptr(scratch).ptr(xLo).ptr(xPtr).desc(xd));
            }
            xPtr = scratch;
            ldb = k;
            strideB = m * k;
        }
        boolean single = !wBatched;
        int batch = single ? 1 : Math.toIntExact(batches);
        long rows = single ? batches * m : m;
        long wPtr = b.ptr(node.input(1)), yPtr = b.ptr(node);
        HipBlasLt.Shape shape = new HipBlasLt.Shape(abType, transA, HipBlasLt.OP_N, n, rows, k, lda, ldb, n,
                batch, wBatched ? wBatch[1] : 0, strideB, m * n);
        HipBlasLt lt = b.backend.hipblaslt();
        HipBlasLt.Plan plan = lt.plan(shape);
        if (plan == null) return false;
        long xFinal = xPtr, xRest = xLo;
        b.add(stream -> lt.run(plan, wPtr, xFinal, yPtr, stream, false));
        if (xRest != 0) b.add(stream -> lt.run(plan, wPtr, xRest, yPtr, stream, true));
        return true;
    }

    /** ae_matmul: y [B0, B1, M, N] contiguous = x [B0, B1, M, K] (F32) times w [B0, B1, N, K]^T (any dtype), both strided. */
    static void gemm(Binding b, long y, long x, TensorDesc xd, long w, DType wt, TensorDesc wd, long m, long n, long k) {
        long batches = xd.n()[0] * xd.n()[1];
        LaunchArgs a = b.args().ptr(y).ptr(x).desc(xd).ptr(w).i32(wt.ordinal()).desc(wd).i64(m).i64(n).i64(k).i64(xd.n()[1]);
        b.launch(SRC, "ae_matmul", Math.toIntExact((n + TILE - 1) / TILE), Math.toIntExact((m + TILE - 1) / TILE),
                Math.toIntExact(batches), TILE, TILE, 1, 0, a);
    }
}
