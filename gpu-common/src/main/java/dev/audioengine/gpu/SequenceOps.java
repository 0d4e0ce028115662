package dev.audioengine.gpu;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/** get_rows, rope, fused attention (flash-style: query tiles share K/V tiles in shared memory, online softmax; FUSED_ATTENTION) and lstm: kernels/sequence.cu. */
final class SequenceOps implements GpuOp {
    private static final String SRC = "sequence";
    /**
     * Dynamic shared memory an attention block may use at most (it is independent of Tk and grows
     * with D: 45 KiB at D = 64, 86 KiB at D = 128), further capped by the device: H100/H200 allow
     * 227 KiB, most AMD GPUs 64 KiB, where D = 128 is then unsupported rather than a failed launch.
     */
    static final int ATTENTION_MAX_SHARED = 200 * 1024;
    /** The LSTM kernel does not opt in to more than the 48 KiB every device gives a block. */
    static final int LSTM_MAX_SHARED = 48 * 1024;
    /** Queries per attention block and keys per tile: ATT_QT and ATT_KT in sequence.cu. */
    static final int ATT_QT = 16, ATT_KT = 64;
    /** ae_attention_rows: at most this many queries, and scores that fit 48 KB of shared memory (no opt-in needed). */
    static final int ATT_ROWS_MAX_TQ = 4, ATT_ROWS_MAX_SHARED = 48 * 1024;

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        return switch (node.op()) {
            case Op.GetRows g -> !node.input(0).dtype().isQuantized() || node.input(0).stride(-1) == 1;
            case Op.Rope r -> node.input(0).dtype() == DType.F32;
            case Op.Attention a -> node.input(1).dtype().isFloat()
                    && attentionShared(node) <= Math.min(ATTENTION_MAX_SHARED, limits.maxSharedPerBlock());
            case Op.Lstm l -> node.inputs().stream().skip(1).allMatch(Tensor::isContiguous)
                    && 6L * l.hidden() * 4 <= Math.min(LSTM_MAX_SHARED, limits.maxSharedPerBlock());
            default -> false;
        };
    }

    /** Decoder steps (few queries, keys that fit shared memory as scores) take the key-parallel kernel. */
    static boolean rowsKernel(Tensor node) {
        return node.input(0).dim(2) <= ATT_ROWS_MAX_TQ && attentionRowsShared(node) <= ATT_ROWS_MAX_SHARED;
    }

    /** q, the block's reduction scratch and one score per key. */
    static long attentionRowsShared(Tensor node) {
        return 4L * (node.input(0).dim(3) + Binding.THREADS + node.input(1).dim(2));
    }

    static long attentionShared(Tensor node) {
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
                b.grid1d(SRC, "ae_get_rows", n, b.args().i64(n).ptr(y).ptr(b.ptr(table)).i32(table.dtype().ordinal())
                        .desc(TensorDesc.of(table)).ptr(b.ptr(ids)).desc(TensorDesc.of(ids)));
            }
            case Op.Rope r -> {
                Tensor x = node.input(0), pos = node.input(1);
                long n = node.elements();
                b.grid1d(SRC, "ae_rope", n, b.args().i64(n).ptr(y).ptr(b.ptr(x)).desc(TensorDesc.of(x)).ptr(b.ptr(pos))
                        .i64(pos.stride(0)).i32(r.dims()).f32(r.base()).i32(r.mode() == Op.RopeMode.NEOX ? 1 : 0));
            }
            case Op.Attention a -> {
                Tensor q = node.input(0), k = node.input(1), v = node.input(2);
                boolean masked = node.inputs().size() > 3;
                long blocks = q.dim(0) * q.dim(1) * ((q.dim(2) + ATT_QT - 1) / ATT_QT);
                if (blocks == 0) return;
                LaunchArgs args = b.args().ptr(y).ptr(b.ptr(q)).desc(TensorDesc.of(q)).ptr(b.ptr(k)).desc(TensorDesc.of(k))
                        .ptr(b.ptr(v)).desc(TensorDesc.of(v)).i32(k.dtype().ordinal())
                        .ptr(masked ? b.ptr(node.input(3)) : 0).desc(masked ? TensorDesc.of(node.input(3)) : TensorDesc.of(q))
                        .f32(a.scale()).i32(a.causal() ? 1 : 0);
                if (rowsKernel(node)) {
                    b.launch(SRC, "ae_attention_rows", Math.toIntExact(q.dim(0) * q.dim(1) * q.dim(2)), 1, 1, Binding.THREADS, 1, 1,
                            (int) attentionRowsShared(node), args);
                } else {
                    b.launch(SRC, "ae_attention", Math.toIntExact(blocks), 1, 1, Binding.THREADS, 1, 1, (int) attentionShared(node), args);
                }
            }
            case Op.Lstm l -> {
                Tensor x = node.input(0);
                long batch = x.dim(0), t = x.dim(1), in = x.dim(2), h = l.hidden();
                if (batch == 0) return;
                LaunchArgs args = b.args().ptr(y).ptr(b.ptr(x)).desc(TensorDesc.of(x));
                for (int i = 1; i <= 6; i++) args.ptr(b.ptr(node.input(i)));
                args.i64(batch).i64(t).i64(in).i64(h);
                b.launch(SRC, "ae_lstm", Math.toIntExact(batch), 1, 1, Binding.THREADS, 1, 1, (int) (6 * h * 4), args);
            }
            default -> throw new IllegalArgumentException("not a sequence op: " + node);
        }
    }
}
