package dev.audioengine.gpu.ops;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * The GPU backends' table of op families: one switch over the sealed {@link Op} without a default
 * branch, so a new op does not compile until CUDA and HIP say which family computes it (or that
 * it runs no kernel), in {@link Op.Family} order. Each family's class ({@code <Family>Ops}, kernels in
 * {@code kernels/<family>.cu}) then switches over its own ops. A family may still say no for some
 * dtypes or shapes (supportsOp).
 */
public final class GpuOps {
    private static final ElementwiseOps ELEMENTWISE = new ElementwiseOps();
    private static final LinearOps LINEAR = new LinearOps();
    private static final LayoutOps LAYOUT = new LayoutOps();
    private static final ReductionOps REDUCTION = new ReductionOps();
    private static final SequenceOps SEQUENCE = new SequenceOps();
    private static final SpectralOps SPECTRAL = new SpectralOps();

    private GpuOps() {}

    /** The family of {@code op}, or null for leaves and views, which launch nothing. */
    private static GpuOp familyOf(Op op) {
        return switch (op) {
            case Op.Input i -> null;
            case Op.Constant c -> null;
            case Op.State s -> null;
            case Op.Binary b -> ELEMENTWISE;
            case Op.Unary u -> ELEMENTWISE;
            case Op.Scale s -> ELEMENTWISE;
            case Op.Snake s -> ELEMENTWISE;
            case Op.MatMul m -> LINEAR;
            case Op.Conv1d c -> LINEAR;
            case Op.ConvTranspose1d c -> LINEAR;
            case Op.Slice s -> null;
            case Op.Permute p -> null;
            case Op.Reshape r -> null;
            case Op.Pad p -> LAYOUT;
            case Op.Concat c -> LAYOUT;
            case Op.Contiguous c -> LAYOUT;
            case Op.WriteSlice w -> LAYOUT;
            case Op.Cast c -> LAYOUT;
            case Op.LayerNorm n -> REDUCTION;
            case Op.RmsNorm n -> REDUCTION;
            case Op.GroupNorm n -> REDUCTION;
            case Op.Softmax s -> REDUCTION;
            case Op.Reduce r -> REDUCTION;
            case Op.Argmax a -> REDUCTION;
            case Op.GetRows g -> SEQUENCE;
            case Op.Rope r -> SEQUENCE;
            case Op.Attention a -> SEQUENCE;
            case Op.KeyMask k -> SEQUENCE;
            case Op.Lstm l -> SEQUENCE;
            case Op.Stft s -> SPECTRAL;
            case Op.Istft s -> SPECTRAL;
            case Op.Magnitude m -> SPECTRAL;
        };
    }

    /** Fills {@code n} elements of type {@code t} at {@code address} with seeded uniform values (benchmark inputs). */
    public static void fillUniform(Binding b, long address, dev.audioengine.api.tensor.DType t, long n, int seed) {
        LayoutOps.fillUniform(b, address, t, n, seed);
    }

    public static boolean supports(Tensor node, DeviceLimits limits) {
        GpuOp op = familyOf(node.op());
        return op != null && op.supports(node, limits);
    }

    public static void bind(Tensor node, Binding b) {
        GpuOp op = familyOf(node.op());
        if (op == null || !op.supports(node, b.device.limits()))
            throw new IllegalArgumentException("the " + b.device.vendorName() + " backend does not support " + node);
        assert op.family() == node.op().family()
                : node.op() + " is " + node.op().family() + ", bound by " + op.family();
        b.bindingOp(node.op().opName());
        op.bind(node, b);
    }
}
