package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.gpu.gemm.GpuBlas;
import dev.audioengine.gpu.runtime.GpuRuntime;

/**
 * get_rows, rope, fused attention (flash-style: query tiles share K/V tiles in shared memory, online softmax;
 * FUSED_ATTENTION), key_mask and lstm: kernels/sequence.cu. key_mask reads the cache length from device memory,
 * so a captured graph replays for every length. A batched decoder step takes the same launches as one sequence:
 * key_mask over B lengths writes [B, 1, Tq, Tk], and both attention kernels read batch element b's mask rows at
 * b times the mask's first stride, which is 0 for a [Tq, Tk] mask shared by the batch.
 */
public final class SequenceOps implements GpuOp {
    private static final String SRC = "sequence", SRC_LINEAR = "linear", SRC_LAYOUT = "layout";
    /** ae_matmul's tile edge (MM_TILE in linear.cu). */
    private static final int MM_TILE = 16;
    /**
     * Dynamic shared memory an attention block may use at most (it is independent of Tk and grows
     * with D: 45 KiB at D = 64, 86 KiB at D = 128), further capped by the device: H100/H200 allow
     * 227 KiB, most AMD GPUs 64 KiB, where D = 128 is then unsupported rather than a failed launch.
     */
    static final int ATTENTION_MAX_SHARED = 200 * 1024;
    /** The LSTM step kernel keeps h[t-1] in shared memory and does not opt in to more than the 48 KiB every device gives a block. */
    static final int LSTM_MAX_SHARED = 48 * 1024;
    /** Queries per attention block and keys per tile: ATT_QT and ATT_KT in sequence.cu. */
    static final int ATT_QT = 16, ATT_KT = 64;
    /** ae_attention_split: at most this many queries (ATT_DECODE_MAX_TQ), keys per split (ATT_SPLIT_KEYS in sequence.cu). */
    static final int ATT_DECODE_MAX_TQ = 4, ATT_SPLIT_KEYS = 32;

    @Override
    public Op.Family family() {
        return Op.Family.SEQUENCE;
    }

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        return switch (node.op()) {
            case Op.GetRows g ->
                BlockTypes.decoded(node.input(0).dtype())
                        && (!node.input(0).dtype().isQuantized()
                                || node.input(0).stride(-1) == 1);
            case Op.Rope r -> node.input(0).dtype() == DType.F32;
            case Op.Attention a ->
                node.input(1).dtype().isFloat()
                        && attentionShared(node) <= Math.min(ATTENTION_MAX_SHARED, limits.maxSharedPerBlock());
            case Op.Lstm l ->
                node.inputs().stream().allMatch(t -> t.dtype() == DType.F32)
                        && node.inputs().stream().skip(1).allMatch(Tensor::isContiguous)
                        && 4L * l.hidden() <= Math.min(LSTM_MAX_SHARED, limits.maxSharedPerBlock());
            case Op.KeyMask k -> true;
            default -> false;
        };
    }

    /** Decoder steps (few queries, a head no wider than a block) take the kernels split over the keys. */
    static boolean decodeKernels(Tensor node) {
        return node.input(0).dim(2) <= ATT_DECODE_MAX_TQ && node.input(0).dim(3) <= Binding.THREADS;
    }

    /** Splits of the keys per query row; one when there are none, so every row is written. */
    static long attentionSplits(Tensor node) {
        return Math.max(1, (node.input(1).dim(2) + ATT_SPLIT_KEYS - 1) / ATT_SPLIT_KEYS);
    }

    public static long attentionShared(Tensor node) {
        long d = node.input(0).dim(3);
        // q and accumulator tiles, K (padded rows) and V tiles, the score tile, three values per query
        return 4L * (2 * ATT_QT * d + ATT_KT * (d + 1) + ATT_KT * d + ATT_QT * ATT_KT + 3L * ATT_QT);
    }

    @Override
    public void bind(Tensor node, Binding b) {
        long y = b.ptr(node);
        switch (node.op()) {
            case Op.GetRows g -> {
                Tensor table = node.input(0), ids = node.input(1);
                long n = node.elements();
                b.grid1d(
                        SRC,
                        "ae_get_rows",
                        n,
                        b.args()
                                .i64(n)
                                .ptr(y)
                                .ptr(b.ptr(table))
                                .i32(table.dtype().ordinal())
                                .desc(TensorDesc.of(table))
                                .ptr(b.ptr(ids))
                                .desc(TensorDesc.of(ids)));
            }
            case Op.Rope r -> {
                Tensor x = node.input(0), pos = node.input(1);
                long n = node.elements();
                b.grid1d(
                        SRC,
                        "ae_rope",
                        n,
                        b.args()
                                .i64(n)
                                .ptr(y)
                                .ptr(b.ptr(x))
                                .desc(TensorDesc.of(x))
                                .ptr(b.ptr(pos))
                                .i64(pos.stride(0))
                                .i32(r.dims())
                                .f32(r.base())
                                .i32(r.mode() == Op.RopeMode.NEOX ? 1 : 0));
            }
            case Op.Attention a -> {
                Tensor q = node.input(0), k = node.input(1), v = node.input(2);
                boolean masked = node.inputs().size() > 3;
                long blocks = q.dim(0) * q.dim(1) * ((q.dim(2) + ATT_QT - 1) / ATT_QT);
                if (blocks == 0) return;
                LaunchArgs args = b.args();
                if (!decodeKernels(node)) args.ptr(y);
                args.ptr(b.ptr(q))
                        .desc(TensorDesc.of(q))
                        .ptr(b.ptr(k))
                        .desc(TensorDesc.of(k))
                        .ptr(b.ptr(v))
                        .desc(TensorDesc.of(v))
                        .i32(k.dtype().ordinal())
                        .ptr(masked ? b.ptr(node.input(3)) : 0)
                        .desc(masked ? TensorDesc.of(node.input(3)) : TensorDesc.of(q))
                        .f32(a.scale())
                        .i32(a.causal() ? 1 : 0);
                if (decodeKernels(node)) {
                    long rows = q.dim(0) * q.dim(1) * q.dim(2), splits = attentionSplits(node), d = q.dim(3);
                    long part = b.scratch(4 * rows * splits * (d + 2));
                    b.launch(
                            SRC,
                            "ae_attention_split",
                            Math.toIntExact(rows * splits),
                            1,
                            1,
                            Binding.THREADS,
                            1,
                            1,
                            (int) (4 * (d + ATT_SPLIT_KEYS + Binding.THREADS)),
                            args.ptr(part).i64(splits));
                    b.launch(
                            SRC,
                            "ae_attention_merge",
                            Math.toIntExact(rows),
                            1,
                            1,
                            Binding.THREADS,
                            1,
                            1,
                            4 * Binding.THREADS,
                            b.args().ptr(y).ptr(part).i64(splits).i64(d));
                } else {
                    b.launch(
                            SRC,
                            "ae_attention",
                            Math.toIntExact(blocks),
                            1,
                            1,
                            Binding.THREADS,
                            1,
                            1,
                            (int) attentionShared(node),
                            args);
                }
            }
            case Op.Lstm l -> lstm(node, l, b, y);
            case Op.KeyMask k ->
                b.grid1d(
                        SRC,
                        "ae_key_mask",
                        node.elements(),
                        b.args()
                                .i32(k.causal() ? 1 : 0)
                                .i64(node.elements())
                                .i64(node.dim(-2))
                                .i64(node.dim(-1))
                                .ptr(b.ptr(node.input(0)))
                                .i64(node.input(0).stride(0))
                                .ptr(y));
            default -> throw new IllegalArgumentException("not a sequence op: " + node);
        }
    }

    /**
     * An LSTM layer as its input projection for every step at once (one GEMM, or the engine's matmul
     * kernel without a GEMM library) and then the recurrence, which is all that is sequential: one launch
     * in all where verified (ae_lstm_seq, CUDA), else one launch per step (ae_lstm_step). The projection was
     * once inside a single-block time loop, where it took most of Kokoro's time on the GPU (docs/PERFORMANCE-cuda.md).
     */
    private static void lstm(Tensor node, Op.Lstm l, Binding b, long y) {
        Tensor x = node.input(0);
        long batch = x.dim(0), t = x.dim(1), in = x.dim(2), h = l.hidden(), rows = batch * t, gates = 4 * h;
        if (rows == 0 || h == 0) return;
        long wih = b.ptr(node.input(1)), xg = b.scratch(4 * rows * gates);
        if (!projectOnLibrary(x, wih, xg, rows, in, gates, b)) {
            // y[b1, m, n] = sum_k x[b1, m, k] * w[n, k]: x as [1, B, T, I], w broadcast over the batch axes
            LaunchArgs a = b.args()
                    .ptr(xg)
                    .ptr(b.ptr(x))
                    .desc(TensorDesc.of(x))
                    .ptr(wih)
                    .i32(DType.F32.ordinal())
                    .desc(TensorDesc.padded(new long[] {gates, in}, new long[] {in, 1}))
                    .i64(t)
                    .i64(gates)
                    .i64(in)
                    .i64(batch);
            b.launch(
                    SRC_LINEAR,
                    "ae_matmul",
                    Math.toIntExact((gates + MM_TILE - 1) / MM_TILE),
                    Math.toIntExact((t + MM_TILE - 1) / MM_TILE),
                    Math.toIntExact(batch),
                    MM_TILE,
                    MM_TILE,
                    1,
                    0,
                    a);
        }
        int warps = Binding.THREADS
                / 32; // the kernel strides over units, so wave64 blocks (half as many warps) cover them too
        int unitBlocks = Math.toIntExact((h + warps - 1) / warps);
        long whh = b.ptr(node.input(2)), bih = b.ptr(node.input(3)), bhh = b.ptr(node.input(4));
        long h0 = b.ptr(node.input(5)), c0 = b.ptr(node.input(6));
        if (persistent(b, batch) && t > 1) {
            int blocks = (int) Math.min(unitBlocks, PERSISTENT_LSTM_BLOCKS / batch);
            long barrier = b.scratch(4 * batch);
            GpuRuntime api = b.device.runtime();
            b.add("memset", stream -> api.memsetAsync(barrier, (byte) 0, 4 * batch, stream));
            b.launch(
                    SRC,
                    "ae_lstm_seq",
                    blocks,
                    Math.toIntExact(batch),
                    1,
                    Binding.THREADS,
                    1,
                    1,
                    (int) (4 * h),
                    b.args()
                            .ptr(y)
                            .ptr(xg)
                            .ptr(whh)
                            .ptr(bih)
                            .ptr(bhh)
                            .ptr(h0)
                            .ptr(c0)
                            .i64(batch)
                            .i64(t)
                            .i64(h)
                            .ptr(barrier));
            return;
        }
        for (long step = 0; step < t; step++) {
            b.launch(
                    SRC,
                    "ae_lstm_step",
                    unitBlocks,
                    Math.toIntExact(batch),
                    1,
                    Binding.THREADS,
                    1,
                    1,
                    (int) (4 * h),
                    b.args()
                            .ptr(y)
                            .ptr(xg)
                            .ptr(whh)
                            .ptr(bih)
                            .ptr(bhh)
                            .ptr(h0)
                            .ptr(c0)
                            .i64(batch)
                            .i64(t)
                            .i64(h)
                            .i64(step));
        }
    }

    /**
     * Blocks of the one-launch recurrence, all batch items together: few enough to be resident at once on any GPU
     * this runs on (an H200 has 132 multiprocessors), since a grid barrier waits for every block.
     */
    static final int PERSISTENT_LSTM_BLOCKS = 16;

    /**
     * The one-launch recurrence (ae_lstm_seq) where it was verified: CUDA (conformance on an H200, graphs on and
     * off). Elsewhere, and for more batch items than blocks, a launch per step.
     */
    private static boolean persistent(Binding b, long batch) {
        return b.device.runtime().vendor().equals("CUDA") && batch <= PERSISTENT_LSTM_BLOCKS;
    }

    /** xg [B*T, 4H] = x . w_ih^T as one library GEMM; false (nothing bound) when there is no library or no plan. */
    private static boolean projectOnLibrary(Tensor x, long wih, long xg, long rows, long in, long gates, Binding b) {
        GpuBlas lt = b.device.blas();
        if (lt == null || in == 0) return false;
        long ld = rowStride(x);
        // rows not evenly spaced along one axis: a contiguous copy first
        long copy = ld < 0 ? b.scratch(4 * x.elements()) : 0, xPtr = ld < 0 ? copy : b.ptr(x);
        if (ld < 0) ld = in;
        // column-major: XG'[4H, rows] = W'[I, 4H]^T (w_ih [4H, I] row-major, opA = T) . X'[I, rows] (opB = N)
        GpuBlas.Plan plan = lt.plan(new GpuBlas.Shape(
                DType.F32,
                DType.F32,
                false,
                true,
                false,
                gates,
                rows,
                in,
                in,
                ld,
                gates,
                1,
                0,
                0,
                0,
                GpuBlas.alignment(wih),
                GpuBlas.alignment(xPtr),
                GpuBlas.alignment(xg)));
        if (plan == null) return false;
        if (copy != 0) {
            b.grid1d(
                    SRC_LAYOUT,
                    "ae_copy",
                    x.elements(),
                    b.args()
                            .i32(4)
                            .i64(x.elements())
                            .ptr(copy)
                            .desc(TensorDesc.contiguous(x.shape()))
                            .ptr(b.ptr(x))
                            .desc(TensorDesc.of(x)));
        }
        b.add("gemm", stream -> lt.run(plan, wih, xPtr, xg, stream, false));
        return true;
    }

    /** The distance between x's rows (b, t) read as one [B*T, I] matrix with unit stride along I, or -1 when they are not one. */
    static long rowStride(Tensor x) {
        long batch = x.dim(0), t = x.dim(1), in = x.dim(2);
        if (x.stride(2) != 1 && in > 1) return -1;
        long ld = t > 1 ? x.stride(1) : batch > 1 ? x.stride(0) : in;
        if (t > 1 && batch > 1 && x.stride(0) != t * x.stride(1)) return -1;
        return ld >= in ? ld : -1;
    }
}
