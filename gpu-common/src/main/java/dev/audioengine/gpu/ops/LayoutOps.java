package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/**
 * pad, concat, contiguous, cast and write_slice: kernels/layout.cu. write_slice writes in place into a
 * persistent tensor at a position the kernel reads from device memory, so a captured graph replays for
 * every position; with one start per batch element (a batched decoder step) each element's own, in the
 * same single launch.
 */
final class LayoutOps implements GpuOp {
    private static final String SRC = "layout";

    @Override
    public Op.Family family() {
        return Op.Family.LAYOUT;
    }

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        return switch (node.op()) {
            case Op.Pad p -> node.input(0).dtype() == DType.F32;
            case Op.Concat c ->
                node.inputs().stream()
                        .allMatch(t -> t.dtype() == node.dtype() && !t.dtype().isQuantized());
            case Op.Contiguous c ->
                !node.dtype().isQuantized() || (BlockTypes.decoded(node.dtype()) && blockView(node.input(0)) != null);
            case Op.Cast c -> {
                DType from = node.input(0).dtype(), to = c.to();
                boolean quantizedReadable = !from.isQuantized() || node.input(0).stride(-1) == 1;
                yield (from == DType.F32 || to == DType.F32)
                        && from != DType.I8
                        && to != DType.I8
                        && quantizedReadable
                        && BlockTypes.decoded(from)
                        && BlockTypes.decoded(to);
            }
            case Op.WriteSlice w ->
                node.dtype() == DType.F32 && node.input(1).dtype() == DType.F32 && node.rank() <= TensorDesc.RANK;
            default -> false;
        };
    }

    @Override
    public void bind(Tensor node, Binding b) {
        long y = b.ptr(node), n = node.elements();
        switch (node.op()) {
            case Op.Pad p -> {
                Tensor x = node.input(0);
                // left-padded with 0 (not padded()'s 1): the added axes get no padding
                long[] before = new long[TensorDesc.RANK];
                System.arraycopy(p.before(), 0, before, TensorDesc.RANK - node.rank(), node.rank());
                b.grid1d(
                        SRC,
                        "ae_pad",
                        n,
                        b.args()
                                .i32(p.mode().ordinal())
                                .f32(p.value())
                                .i64(n)
                                .ptr(y)
                                .desc(TensorDesc.contiguous(node.shape()))
                                .ptr(b.ptr(x))
                                .desc(TensorDesc.of(x))
                                .desc(new TensorDesc(before, new long[TensorDesc.RANK])));
            }
            case Op.Concat c -> {
                long[] outStrides = node.shape().contiguousStrides();
                long along = 0;
                int elem = node.dtype().blockBytes();
                for (Tensor x : node.inputs()) {
                    long dst = y + along * outStrides[c.axis()] * elem;
                    b.grid1d(
                            SRC,
                            "ae_copy",
                            x.elements(),
                            b.args()
                                    .i32(elem)
                                    .i64(x.elements())
                                    .ptr(dst)
                                    .desc(TensorDesc.padded(x.shape().dims(), outStrides))
                                    .ptr(b.ptr(x))
                                    .desc(TensorDesc.of(x)));
                    along += x.dim(c.axis());
                }
            }
            case Op.Contiguous c -> {
                Tensor x = node.input(0);
                TensorDesc src = x.dtype().isQuantized() ? blockView(x) : TensorDesc.of(x);
                TensorDesc dst = x.dtype().isQuantized()
                        ? TensorDesc.padded(src.n(), contiguousOf(src.n()))
                        : TensorDesc.contiguous(node.shape());
                long count = src.elements();
                b.grid1d(
                        SRC,
                        "ae_copy",
                        count,
                        b.args()
                                .i32(x.dtype().blockBytes())
                                .i64(count)
                                .ptr(y)
                                .desc(dst)
                                .ptr(b.ptr(x))
                                .desc(src));
            }
            case Op.Cast c -> {
                Tensor x = node.input(0);
                DType from = x.dtype(), to = c.to();
                if (from == to) {
                    b.grid1d(
                            SRC,
                            "ae_copy",
                            n,
                            b.args()
                                    .i32(4)
                                    .i64(n)
                                    .ptr(y)
                                    .desc(TensorDesc.contiguous(node.shape()))
                                    .ptr(b.ptr(x))
                                    .desc(TensorDesc.of(x)));
                } else if (to == DType.F32) {
                    b.grid1d(
                            SRC,
                            "ae_cast_to_f32",
                            n,
                            b.args()
                                    .i32(from.ordinal())
                                    .i64(n)
                                    .ptr(y)
                                    .ptr(b.ptr(x))
                                    .desc(TensorDesc.of(x)));
                } else if (to.isQuantized()) {
                    long blocks = n / to.blockSize();
                    b.grid1d(
                            SRC,
                            "ae_quantize",
                            blocks,
                            b.args()
                                    .i32(to.ordinal())
                                    .i64(blocks)
                                    .ptr(y)
                                    .ptr(b.ptr(x))
                                    .desc(TensorDesc.of(x)));
                } else {
                    b.grid1d(
                            SRC,
                            "ae_cast_from_f32",
                            n,
                            b.args()
                                    .i32(to.ordinal())
                                    .i64(n)
                                    .ptr(y)
                                    .ptr(b.ptr(x))
                                    .desc(TensorDesc.of(x)));
                }
            }
            case Op.WriteSlice w -> {
                Tensor src = node.input(1);
                int pad = TensorDesc.RANK - node.rank(), axis = w.axis() + pad;
                boolean perBatch = perBatchStarts(node, w);
                b.grid1d(
                        SRC,
                        "ae_write_slice",
                        src.elements(),
                        b.args()
                                .i64(src.elements())
                                .i32(axis)
                                .ptr(b.ptrOrNull(node, 2))
                                .i32(perBatch ? pad : -1)
                                .i64(perBatch ? node.input(2).stride(0) : 0)
                                .ptr(y)
                                .desc(TensorDesc.of(node))
                                .ptr(b.ptr(src))
                                .desc(TensorDesc.of(src)));
            }
            default -> throw new IllegalArgumentException("not a layout op: " + node);
        }
    }

    /**
     * Whether write_slice's start is one per batch element (I32 [B], B = dst's first dimension &gt; 1, axis &gt; 0:
     * see {@link Op.WriteSlice}), read by the kernel at each element's index along the first axis. With B = 1 the one
     * start keeps the single start's rule, as in the float64 reference: a negative start drops only the elements that
     * land outside (docs/STATE.md, "Bounds"; scripts/gpu/StateBoundsProbe.java).
     */
    static boolean perBatchStarts(Tensor node, Op.WriteSlice w) {
        if (node.inputs().size() < 3 || w.axis() == 0 || node.dim(0) < 2) return false;
        Tensor start = node.input(2);
        return start.rank() == 1 && start.dim(0) == node.dim(0);
    }

    /** Fills {@code n} elements of type {@code t} at {@code address} with seeded uniform values (benchmark inputs). */
    static void fillUniform(Binding b, long address, DType t, long n, int seed) {
        b.grid1d(
                SRC,
                "ae_fill_uniform",
                n,
                b.args().i32(t.ordinal()).i64(n).ptr(address).i32(seed));
    }

    /**
     * A quantized view as a view of whole blocks (32 values each, 256 for the k-quants): its last axis must be
     * unit-stride and every other stride a whole number of blocks; null when it is not.
     */
    static TensorDesc blockView(Tensor x) {
        int r = x.rank(), block = x.dtype().blockSize();
        if (r == 0 || x.stride(-1) != 1 || x.dim(-1) % block != 0 || x.offset() % block != 0) return null;
        long[] d = x.shape().dims(), s = x.strides();
        for (int i = 0; i < r - 1; i++) {
            if (s[i] % block != 0) return null;
            s[i] /= block;
        }
        d[r - 1] /= block;
        return TensorDesc.padded(d, s);
    }

    private static long[] contiguousOf(long[] dims) {
        return dev.audioengine.api.tensor.Shape.of(dims).contiguousStrides();
    }
}
