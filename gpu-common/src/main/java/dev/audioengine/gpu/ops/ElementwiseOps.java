package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/** binary (broadcasting), unary activations, scale and snake: kernels/elementwise.cu. */
final class ElementwiseOps implements GpuOp {
    private static final String SRC = "elementwise";
    /** ae_unary_*'s kind for Op.Scale (past the Op.UnaryKind ordinals, which are the others). */
    static final int UN_SCALE = 100;

    @Override
    public Op.Family family() {
        return Op.Family.ELEMENTWISE;
    }

    @Override
    public boolean supports(Tensor node, DeviceLimits limits) {
        if (node.dtype() != DType.F32 || node.inputs().stream().anyMatch(t -> t.dtype() != DType.F32)) return false;
        if (node.op() instanceof Op.Snake)
            return node.rank() == 3 && node.input(1).rank() == 1;
        return true;
    }

    @Override
    public void bind(Tensor node, Binding b) {
        long n = node.elements();
        long y = b.ptr(node);
        switch (node.op()) {
            case Op.Binary bin -> {
                Tensor a = node.input(0), c = node.input(1);
                boolean sameShape = a.isContiguous()
                        && c.isContiguous()
                        && a.shape().equals(node.shape())
                        && c.shape().equals(node.shape());
                if (sameShape && vectorizable(n, y, b.ptr(a), b.ptr(c))) {
                    b.grid1d(
                            SRC,
                            "ae_binary_vec4",
                            n / 4,
                            b.args()
                                    .i32(bin.kind().ordinal())
                                    .i64(n / 4)
                                    .ptr(y)
                                    .ptr(b.ptr(a))
                                    .ptr(b.ptr(c)));
                } else if (sameShape) {
                    b.grid1d(
                            SRC,
                            "ae_binary_contig",
                            n,
                            b.args()
                                    .i32(bin.kind().ordinal())
                                    .i64(n)
                                    .ptr(y)
                                    .ptr(b.ptr(a))
                                    .ptr(b.ptr(c)));
                } else {
                    b.grid1d(
                            SRC,
                            "ae_binary_strided",
                            n,
                            b.args()
                                    .i32(bin.kind().ordinal())
                                    .i64(n)
                                    .ptr(y)
                                    .ptr(b.ptr(a))
                                    .desc(TensorDesc.broadcast(a, node.shape()))
                                    .ptr(b.ptr(c))
                                    .desc(TensorDesc.broadcast(c, node.shape())));
                }
            }
            case Op.Unary u -> unary(b, node, u.kind().ordinal(), u.alpha(), 1f, 0f, n, y);
            case Op.Scale s -> unary(b, node, UN_SCALE, 0f, s.scale(), s.bias(), n, y);
            case Op.Snake ignored -> {
                Tensor x = node.input(0), alpha = node.input(1);
                b.grid1d(
                        SRC,
                        "ae_snake",
                        n,
                        b.args()
                                .i64(n)
                                .ptr(y)
                                .ptr(b.ptr(x))
                                .desc(TensorDesc.of(x))
                                .ptr(b.ptr(alpha))
                                .i64(alpha.stride(0)));
            }
            default -> throw new IllegalArgumentException("not an elementwise op: " + node);
        }
    }

    /** Whole groups of four at 16-byte aligned addresses: the 128-bit load path. */
    private static boolean vectorizable(long n, long... ptrs) {
        if (n % 4 != 0) return false;
        for (long p : ptrs) if ((p & 15) != 0) return false;
        return true;
    }

    private static void unary(Binding b, Tensor node, int kind, float alpha, float scale, float bias, long n, long y) {
        Tensor x = node.input(0);
        if (x.isContiguous() && vectorizable(n, y, b.ptr(x), y)) {
            b.grid1d(
                    SRC,
                    "ae_unary_vec4",
                    n / 4,
                    b.args()
                            .i32(kind)
                            .f32(alpha)
                            .f32(scale)
                            .f32(bias)
                            .i64(n / 4)
                            .ptr(y)
                            .ptr(b.ptr(x)));
        } else if (x.isContiguous()) {
            b.grid1d(
                    SRC,
                    "ae_unary_contig",
                    n,
                    b.args()
                            .i32(kind)
                            .f32(alpha)
                            .f32(scale)
                            .f32(bias)
                            .i64(n)
                            .ptr(y)
                            .ptr(b.ptr(x)));
        } else {
            b.grid1d(
                    SRC,
                    "ae_unary_strided",
                    n,
                    b.args()
                            .i32(kind)
                            .f32(alpha)
                            .f32(scale)
                            .f32(bias)
                            .i64(n)
                            .ptr(y)
                            .ptr(b.ptr(x))
                            .desc(TensorDesc.of(x)));
        }
    }
}
