package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.gpu.gemm.GpuBlas;
import java.util.List;

/**
 * matmul, conv1d and conv_transpose1d: kernels/linear.cu and the GEMM library.
 * <p>
 * y[..., m, n] = Σ_k x[..., m, k]·w[..., n, k]. F32, F16 and BF16 weights go to the GEMM library
 * (cuBLASLt, hipBLASLt; FAST_PROJECTION, BF16_WEIGHTS), always accumulating in F32: F32 as it is
 * (TF32 only with P.tf32=on); F16/BF16 with x split into a rounded high part and the rounded remainder
 * (two GEMMs into the same result, so activations keep about F32 precision; P.matmul=fast uses the
 * high part alone). Block-quantized weights ({@link BlockTypes}) run ae_matvec_&lt;type&gt; for up to 64 rows of x (the
 * blocks multiplied where they lie); where the vendor has verified FAST_PROJECTION, products of more rows (for weight constants, more than
 * {@code P.matvec_max_rows}) go to the library on an F32 copy: kept on the device for a constant
 * ({@link DecodedWeights}), decoded into scratch each run otherwise; otherwise, like layouts the library cannot express (a weight batch that is neither absent
 * nor one stride), every dtype when there is no library, and shapes it has no algorithm for, the tiled
 * kernel in linear.cu, which decodes F32, F16, BF16 and the block types' weights as it loads them.
 * <p>
 * conv1d (a dedicated depthwise kernel when groups == in == out channels, else im2col + a library
 * GEMM batched over groups accumulating onto the bias, or a direct kernel when the column buffer
 * would exceed {@link #MAX_COLUMN_BYTES}) and conv_transpose1d lowered to GEMM + col2im (CONV_TRANSPOSE1D_COL2IM): per batch item, one
 * library GEMM (cuBLASLt, hipBLASLt) batched over groups makes cols = w_g^T x_g [coutPer*K, T], then ae_col2im_1d gathers
 * the taps of each output. Should there be no library, or should it offer no algorithm, a direct gather kernel computes it.
 */
final class LinearOps implements GpuOp {
    private static final String SRC = "linear";
    private static final int TILE = 16;
    /**
     * Up to this many rows of x, quantized weights use the block-decoding mat-vec kernel (decode-style projections,
     * and a batched decoder step of up to 64 sequences: on an H100 the tiled kernel took 95 µs a call for such steps,
     * where the mat-vec reads the weights once per row from L2; docs/PERFORMANCE.md). Past it, the tiled kernel.
     */
    static final long MATVEC_MAX_ROWS = 64;
    /** ae_matvec_&lt;type&gt;: 8 outputs per block (MV_ROWS in linear.cu), one 32-wide warp each. */
    private static final int MATVEC_THREADS = 256, MATVEC_ROWS = 8;

    private static boolean supportsMatmul(Tensor node) {
        Tensor w = node.input(1);
        return node.input(0).dtype() == DType.F32
                && (w.dtype().isFloat() || (w.dtype().isQuantized() && BlockTypes.decoded(w.dtype())))
                && node.rank() <= 4
                && (!w.dtype().isQuantized() || w.stride(-1) == 1);
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

    /** {count, stride} when the two batch axes walk memory with one stride; null when they do not. */
    static long[] collapseBatch(TensorDesc d) {
        long b0 = d.n()[0], b1 = d.n()[1], s0 = d.s()[0], s1 = d.s()[1];
        if (b0 == 1) return new long[] {b1, b1 == 1 ? 0 : s1};
        if (b1 == 1) return new long[] {b0, s0};
        return s0 == b1 * s1 ? new long[] {b0 * b1, s1} : null;
    }

    private static void matmul(Tensor node, Binding b) {
        Tensor x = node.input(0), w = node.input(1);
        long[] out = node.shape().dims();
        TensorDesc xd = operand(x, out), wd = operand(w, out);
        long m = x.dim(-2), n = w.dim(-2), k = x.dim(-1);
        if (node.elements() == 0) return;
        long rows = xd.n()[0] * xd.n()[1] * m;
        boolean wPlain = wd.s()[0] == 0 && wd.s()[1] == 0 && wd.s()[3] == 1 && (n == 1 || wd.s()[2] == k);
        if ((w.dtype() == DType.F16 || w.dtype() == DType.BF16)
                && wPlain
                && xd.s()[3] == 1
                && k > 0
                && rows <= b.device.halfMatvecRows()) {
            // a decoder step's half-float projection: one launch (ae_matvec_f16/bf16) where the library's half path
            // narrows the activations and runs two GEMMs
            launchMatvec(node, b, xd, w, rows, n, k);
            return;
        }
        if (w.dtype().isFloat()
                && b.device.blas() != null
                && k > 0
                && library(node, b, xd, wd, m, n, k, w.dtype(), b.ptr(w))) return;
        boolean quantized = w.dtype().isQuantized();
        boolean matvecShape = quantized && wPlain && xd.s()[3] == 1;
        boolean viaLibrary = quantized && wPlain && k > 0 && b.device.fastProjection() && b.device.blas() != null;
        if (viaLibrary && w.storage().op() instanceof Op.Constant) {
            // A weight constant (every model's projections): past matvecMaxRows rows (a wide batched decoder step,
            // an encoder's frames) the mat-vec kernel reads the whole weight once per row and the tiled kernel
            // decodes every block once per 16 rows, both far below the library; one F32 copy kept on the device,
            // shared by every segment using it, goes to the library instead. The copy holds the values the CPU decodes
            // (ae_tensor.h's ld_any, BlockQuantization's arithmetic), each an F32 value.
            if (!(matvecShape && rows <= b.device.matvecMaxRows())
                    && library(
                            node,
                            b,
                            xd,
                            plainF32(wd, k),
                            m,
                            n,
                            k,
                            DType.F32,
                            b.decodedWeight(w, n, k, rowStride(wd, n, k)))) return;
        } else if (viaLibrary && !(matvecShape && rows <= MATVEC_MAX_ROWS)) {
            // Weights computed in the graph: decoded into the op's scratch on each run (n*k values, a small cost
            // beside a product of more than 64 rows)
            long count = n * k;
            long f32 = b.scratch(count * 4);
            b.grid1d(
                    SRC_LAYOUT,
                    "ae_cast_to_f32",
                    count,
                    b.args()
                            .i32(w.dtype().ordinal())
                            .i64(count)
                            .ptr(f32)
                            .ptr(b.ptr(w))
                            .desc(new TensorDesc(new long[] {1, 1, n, k}, new long[] {0, 0, rowStride(wd, n, k), 1})));
            if (library(node, b, xd, plainF32(wd, k), m, n, k, DType.F32, f32)) return;
            // no algorithm for this shape: the kernels below read the quantized weight as before (the decoded copy is
            // then unused, and costs one small kernel a run)
        }
        boolean matvec = matvecShape && rows <= MATVEC_MAX_ROWS;
        if (matvec) {
            launchMatvec(node, b, xd, w, rows, n, k);
            return;
        }
        long batches = xd.n()[0] * xd.n()[1];
        LaunchArgs a = b.args()
                .ptr(b.ptr(node))
                .ptr(b.ptr(x))
                .desc(xd)
                .ptr(b.ptr(w))
                .i32(w.dtype().ordinal())
                .desc(wd)
                .i64(m)
                .i64(n)
                .i64(k)
                .i64(xd.n()[1]);
        b.launch(
                SRC,
                basicWeight(w.dtype()) ? "ae_matmul" : "ae_matmul_blocks",
                Math.toIntExact((n + TILE - 1) / TILE),
                Math.toIntExact((m + TILE - 1) / TILE),
                Math.toIntExact(batches),
                TILE,
                TILE,
                1,
                0,
                a);
    }

    /** ae_matvec_&lt;type&gt; over {@code rows} rows of x: MATVEC_ROWS outputs a block, a block row per row of x. */
    private static void launchMatvec(Tensor node, Binding b, TensorDesc xd, Tensor w, long rows, long n, long k) {
        b.launch(
                SRC,
                matvecKernel(w.dtype()),
                Math.toIntExact((n + MATVEC_ROWS - 1) / MATVEC_ROWS),
                Math.toIntExact(rows),
                1,
                MATVEC_THREADS,
                1,
                1,
                0,
                b.args()
                        .ptr(b.ptr(node))
                        .ptr(b.ptr(node.input(0)))
                        .desc(xd)
                        .ptr(b.ptr(w))
                        .i64(n)
                        .i64(k));
    }

    /** Weights ae_matmul reads (plain types, Q8_0, Q4_0); the other block types take ae_matmul_blocks. */
    static boolean basicWeight(DType t) {
        return !t.isQuantized() || t == DType.Q8_0 || t == DType.Q4_0;
    }

    /** linear.cu's mat-vec kernel for weights of block type {@code t}: one per type, each holding only its decode. */
    static String matvecKernel(DType t) {
        if (t != DType.F16 && t != DType.BF16 && (!t.isQuantized() || !BlockTypes.decoded(t)))
            throw new IllegalArgumentException("no mat-vec kernel for " + t);
        return "ae_matvec_" + t.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Elements between a plain weight's rows. */
    private static long rowStride(TensorDesc wd, long n, long k) {
        return n == 1 ? k : wd.s()[2];
    }

    /** A plain weight's description once decoded into a contiguous F32 [n, k] copy. */
    private static TensorDesc plainF32(TensorDesc wd, long k) {
        return new TensorDesc(wd.n().clone(), new long[] {0, 0, k, 1});
    }

    /** Binds the library path; false when this layout needs the kernel instead. */
    private static boolean library(
            Tensor node, Binding b, TensorDesc xd, TensorDesc wd, long m, long n, long k, DType wt, long wPtr) {
        long batches = xd.n()[0] * xd.n()[1];
        // weights: K-contiguous rows (transposed in column-major terms) or N-contiguous columns
        boolean transA;
        long lda;
        if (wd.s()[3] == 1 || k == 1) {
            transA = true;
            lda = Math.max(k, n == 1 ? k : wd.s()[2]);
        } else if (wd.s()[2] == 1 || n == 1) {
            transA = false;
            lda = Math.max(n, k == 1 ? n : wd.s()[3]);
        } else return false;
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
                if (xBatch != null && rowStride >= k) {
                    ldb = rowStride;
                    strideB = xBatch[1];
                }
            } else if (batches == 1) {
                if (rowStride >= k) ldb = rowStride;
            } else if (xBatch != null && (m == 1 || xBatch[1] == m * rowStride)) {
                long r = m == 1 ? xBatch[1] : rowStride;
                if (r >= k) ldb = r;
            }
        }
        long xLo = 0;
        if (ldb < 0) {
            // round (F16/BF16) or copy (F32) x into a contiguous [batches, m, k] scratch of the weight's type
            long count = batches * m * k;
            boolean split = wt != DType.F32 && !b.device.fastMatmul();
            long scratch = b.scratch(count * (wt == DType.F32 ? 4 : split ? 4 : 2));
            if (wt == DType.F32) {
                b.grid1d(
                        "layout",
                        "ae_copy",
                        count,
                        b.args()
                                .i32(4)
                                .i64(count)
                                .ptr(scratch)
                                .desc(TensorDesc.contiguous(dev.audioengine.api.tensor.Shape.of(xd.n())))
                                .ptr(xPtr)
                                .desc(xd));
            } else {
                xLo = split ? scratch + 2 * count : 0;
                b.grid1d(
                        "layout",
                        "ae_narrow_rows",
                        count,
                        b.args()
                                .i32(wt.ordinal())
                                .i64(count)
                                .ptr(scratch)
                                .ptr(xLo)
                                .ptr(xPtr)
                                .desc(xd));
            }
            xPtr = scratch;
            ldb = k;
            strideB = m * k;
        }
        boolean single = !wBatched;
        int batch = single ? 1 : Math.toIntExact(batches);
        long rows = single ? batches * m : m;
        long yPtr = b.ptr(node);
        boolean fast = wt == DType.F32 && b.device.tf32();
        GpuBlas.Shape shape = new GpuBlas.Shape(
                wt,
                DType.F32,
                fast,
                transA,
                false,
                n,
                rows,
                k,
                lda,
                ldb,
                n,
                batch,
                wBatched ? wBatch[1] : 0,
                strideB,
                m * n,
                GpuBlas.alignment(wPtr),
                GpuBlas.alignment(xPtr),
                GpuBlas.alignment(yPtr));
        GpuBlas lt = b.device.blas();
        GpuBlas.Plan plan = lt.plan(shape);
        if (plan == null) return false;
        long xFinal = xPtr, xRest = xLo;
        b.add("gemm", stream -> lt.run(plan, wPtr, xFinal, yPtr, stream, false));
        if (xRest != 0) b.add("gemm", stream -> lt.run(plan, wPtr, xRest, yPtr, stream, true));
        return true;
    }

    @Override
    public Op.Family family() {
        return Op.Family.LINEAR;
    }

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        return switch (node.op()) {
            case Op.MatMul m -> supportsMatmul(node);
            case Op.Conv1d c -> supportsConv(node);
            case Op.ConvTranspose1d c -> supportsConv(node);
            default -> false;
        };
    }

    @Override
    public void bind(Tensor node, Binding b) {
        switch (node.op()) {
            case Op.MatMul m -> matmul(node, b);
            case Op.Conv1d c -> conv(node, b);
            case Op.ConvTranspose1d c -> conv(node, b);
            default -> throw new IllegalArgumentException("not a linear op: " + node);
        }
    }

    private static final String SRC_LAYOUT = "layout";
    /** Largest im2col buffer a conv1d may use; beyond it the direct kernel runs instead. */
    static final long MAX_COLUMN_BYTES = 256L << 20;

    private static boolean supportsConv(Tensor node) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32)
                && node.input(0).rank() == 3
                && node.input(1).rank() == 3;
    }

    static boolean isDepthwise(Tensor node) {
        return node.op() instanceof Op.Conv1d c
                && c.groups() > 1
                && c.groups() == node.input(0).dim(1)
                && c.groups() == node.dim(1);
    }

    private static void conv(Tensor node, Binding b) {
        Tensor x = node.input(0), w = node.input(1);
        Tensor bias = node.inputs().size() > 2 ? node.input(2) : null;
        long biasPtr = bias == null ? 0 : b.ptr(bias), biasStride = bias == null ? 0 : bias.stride(0);
        long batch = x.dim(0), cin = x.dim(1), t = x.dim(2), cout = node.dim(1), tout = node.dim(2), k = w.dim(2);
        long n = node.elements();
        LaunchArgs a = b.args()
                .ptr(b.ptr(node))
                .ptr(b.ptr(x))
                .desc(TensorDesc.of(x))
                .ptr(b.ptr(w))
                .desc(TensorDesc.of(w))
                .ptr(biasPtr)
                .i64(biasStride);
        switch (node.op()) {
            case Op.Conv1d c
            when isDepthwise(node) ->
                b.grid1d(
                        SRC,
                        "ae_conv1d_depthwise",
                        n,
                        a.i64(batch)
                                .i64(cin)
                                .i64(t)
                                .i64(k)
                                .i64(tout)
                                .i32(c.stride())
                                .i32(c.padding())
                                .i32(c.dilation()));
            case Op.Conv1d c -> {
                if (!im2col(node, c, b, biasPtr, biasStride)) {
                    b.grid1d(
                            SRC,
                            "ae_conv1d",
                            n,
                            a.i64(batch)
                                    .i64(cin)
                                    .i64(t)
                                    .i64(cout)
                                    .i64(k)
                                    .i64(tout)
                                    .i32(c.stride())
                                    .i32(c.padding())
                                    .i32(c.dilation())
                                    .i32(c.groups()));
                }
            }
            case Op.ConvTranspose1d c -> {
                if (!col2im(node, c, b, biasPtr, biasStride)) {
                    b.grid1d(
                            SRC,
                            "ae_conv_transpose1d",
                            n,
                            a.i64(batch)
                                    .i64(cin)
                                    .i64(t)
                                    .i64(cout)
                                    .i64(k)
                                    .i64(tout)
                                    .i32(c.stride())
                                    .i32(c.padding())
                                    .i32(c.dilation())
                                    .i32(c.groups()));
                }
            }
            default -> throw new IllegalArgumentException("not a convolution: " + node);
        }
    }

    /** Binds GEMM + col2im; false (nothing bound) when the GEMM library has no algorithm for the shape. */
    private static boolean col2im(Tensor node, Op.ConvTranspose1d c, Binding b, long biasPtr, long biasStride) {
        Tensor x = node.input(0), w = node.input(1);
        if (b.device.blas() == null || !w.isContiguous()) return false;
        long batch = x.dim(0), cin = x.dim(1), t = x.dim(2), cout = node.dim(1), k = w.dim(2), tout = node.dim(2);
        int groups = c.groups();
        long cinPer = cin / groups, p = (cout / groups) * k;
        if (batch == 0 || t == 0 || p == 0 || cinPer == 0) return false;
        // x per batch item as column-major [T, cin] (unit stride along time), else a contiguous copy first
        long xPtr = b.ptr(x), xsB = x.stride(0), xsC = x.stride(1);
        if (x.stride(2) != 1 || (cin > 1 && xsC < t)) {
            long copy = b.scratch(4 * x.elements());
            b.grid1d(
                    SRC_LAYOUT,
                    "ae_copy",
                    x.elements(),
                    b.args()
                            .i32(4)
                            .i64(x.elements())
                            .ptr(copy)
                            .desc(TensorDesc.contiguous(x.shape()))
                            .ptr(xPtr)
                            .desc(TensorDesc.of(x)));
            xPtr = copy;
            xsB = cin * t;
            xsC = t;
        }
        long lda = cin > 1 ? xsC : t;
        long cols = b.scratch(4 * batch * groups * p * t);
        long wPtr = b.ptr(w);
        // column-major: C'[T, P] = X'[T, cinPer] (opA = N) . W'[cinPer, P] (W stored [cinPer, P] row-major: opB = T)
        GpuBlas.Shape shape = new GpuBlas.Shape(
                DType.F32,
                DType.F32,
                false,
                false,
                true,
                t,
                p,
                cinPer,
                lda,
                p,
                t,
                groups,
                cinPer * xsC,
                cinPer * p,
                p * t,
                GpuBlas.alignment(xPtr),
                GpuBlas.alignment(wPtr),
                GpuBlas.alignment(cols));
        for (long bi = 0; bi < batch; bi++) {
            long xb = xPtr + 4 * bi * xsB, cb = cols + 4 * bi * groups * p * t;
            GpuBlas.Shape s = new GpuBlas.Shape(
                    shape.ab(),
                    shape.d(),
                    shape.fastF32(),
                    shape.transA(),
                    shape.transB(),
                    shape.m(),
                    shape.n(),
                    shape.k(),
                    shape.lda(),
                    shape.ldb(),
                    shape.ldd(),
                    shape.batch(),
                    shape.strideA(),
                    shape.strideB(),
                    shape.strideD(),
                    GpuBlas.alignment(xb),
                    shape.alignB(),
                    GpuBlas.alignment(cb));
            GpuBlas lt = b.device.blas();
            GpuBlas.Plan plan = lt.plan(s);
            if (plan == null) return false;
            b.add("gemm", stream -> lt.run(plan, xb, wPtr, cb, stream, false));
        }
        b.grid1d(
                SRC,
                "ae_col2im_1d",
                node.elements(),
                b.args()
                        .ptr(b.ptr(node))
                        .ptr(cols)
                        .ptr(biasPtr)
                        .i64(biasStride)
                        .i64(batch)
                        .i64(cout)
                        .i64(t)
                        .i64(k)
                        .i64(tout)
                        .i32(c.stride())
                        .i32(c.padding())
                        .i32(c.dilation())
                        .i32(groups));
        return true;
    }

    /** Binds im2col + GEMM for conv1d; false (nothing bound) when it does not apply. */
    private static boolean im2col(Tensor node, Op.Conv1d c, Binding b, long biasPtr, long biasStride) {
        Tensor x = node.input(0), w = node.input(1);
        if (b.device.blas() == null || !w.isContiguous()) return false;
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
            GpuBlas.Plan plan = b.device
                    .blas()
                    .plan(new GpuBlas.Shape(
                            DType.F32,
                            DType.F32,
                            false,
                            false,
                            false,
                            tout,
                            coutPer,
                            rows,
                            tout,
                            rows,
                            tout,
                            groups,
                            rows * tout,
                            coutPer * rows,
                            coutPer * tout,
                            GpuBlas.alignment(cb),
                            GpuBlas.alignment(wPtr),
                            GpuBlas.alignment(yb)));
            if (plan == null) return false;
            plans.add(plan);
        }
        b.grid2d(
                SRC,
                "ae_im2col_1d",
                batch * cin * k,
                tout,
                b.args()
                        .ptr(cols)
                        .ptr(b.ptr(x))
                        .desc(TensorDesc.of(x))
                        .i64(batch)
                        .i64(cin)
                        .i64(t)
                        .i64(k)
                        .i64(tout)
                        .i32(c.stride())
                        .i32(c.padding())
                        .i32(c.dilation()));
        b.grid2d(
                SRC,
                "ae_fill_bias",
                batch * cout,
                tout,
                b.args()
                        .ptr(yPtr)
                        .ptr(biasPtr)
                        .i64(biasStride)
                        .i64(batch)
                        .i64(cout)
                        .i64(tout));
        GpuBlas lt = b.device.blas();
        for (int bi = 0; bi < batch; bi++) {
            GpuBlas.Plan plan = plans.get(bi);
            long cb = cols + 4L * bi * cin * k * tout, yb = yPtr + 4L * bi * cout * tout;
            b.add("gemm", stream -> lt.run(plan, cb, wPtr, yb, stream, true));
        }
        return true;
    }
}
