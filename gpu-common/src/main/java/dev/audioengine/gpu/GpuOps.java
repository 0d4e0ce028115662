package dev.audioengine.gpu;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * The GPU backends' table of op families: one switch over the sealed {@link Op} without a default
 * branch, so a new op does not compile until CUDA and HIP say which family computes it (or that
 * it runs no kernel). A family may still say no for some dtypes or shapes (supportsOp).
 */
final class GpuOps {
    private static final ElementwiseOps ELEMENTWISE = new ElementwiseOps();
    private static final LayoutOps LAYOUT = new LayoutOps();
    private static final RowOps ROWS = new RowOps();
    private static final SequenceOps SEQUENCE = new SequenceOps();
    private static final SpectralOps SPECTRAL = new SpectralOps();
    private static final MatMulOp MATMUL = new MatMulOp();
    private static final ConvOps CONV = new ConvOps();
    private static final CacheOps CACHE = new CacheOps();

    private GpuOps() {}

    /** The family of {@code op}, or null for leaves and views, which launch nothing. */
    private static GpuOp familyOf(Op op) {
        return switch (op) {
            case Op.Input i -> null;
            case Op.Constant c -> null;
            case Op.State s -> null;
            case Op.Slice s -> null;
            case Op.Permute p -> null;
            case Op.Reshape r -> null;
            case Op.Binary b -> ELEMENTWISE;
            case Op.Unary u -> ELEMENTWISE;
            case Op.Scale s -> ELEMENTWISE;
            case Op.Snake s -> ELEMENTWISE;
            case Op.MatMul m -> MATMUL;
            case Op.Conv1d c -> CONV;
            case Op.ConvTranspose1d c -> CONV;
            case Op.Pad p -> LAYOUT;
            case Op.Concat c -> LAYOUT;
            case Op.Contiguous c -> LAYOUT;
            case Op.Cast c -> LAYOUT;
            case Op.WriteSlice w -> CACHE;
            case Op.KeyMask k -> CACHE;
            case Op.LayerNorm n -> ROWS;
            case Op.RmsNorm n -> ROWS;
            case Op.GroupNorm n -> ROWS;
            case Op.Softmax s -> ROWS;
            case Op.Reduce r -> ROWS;
            case Op.Argmax a -> ROWS;
            case Op.GetRows g -> SEQUENCE;
            case Op.Rope r -> SEQUENCE;
            case Op.Attention a -> SEQUENCE;
            case Op.Lstm l -> SEQUENCE;
            case Op.Stft s -> SPECTRAL;
            case Op.Istft s -> SPECTRAL;
            case Op.Magnitude m -> SPECTRAL;
        };
    }

    static boolean supports(Tensor node, DeviceLimits limits) {
        GpuOp op = familyOf(node.op());
        return op != null && op.supports(node, limits);
    }

    static void bind(Tensor node, Binding b) {
        GpuOp op = familyOf(node.op());
        if (op == null || !op.supports(node, b.backend.limits())) throw new IllegalArgumentException("the " + b.backend.vendorName() + " backend does not support " + node);
        b.bindingOp(node.op().opName());
        op.bind(node, b);
    }
}
