package dev.audioengine.gpu;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

import java.util.Map;

/** The GPU backends' table of op families; an op missing here is unsupported (supportsOp says no). */
final class GpuOps {
    private static final ElementwiseOps ELEMENTWISE = new ElementwiseOps();
    private static final LayoutOps LAYOUT = new LayoutOps();
    private static final RowOps ROWS = new RowOps();
    private static final SequenceOps SEQUENCE = new SequenceOps();
    private static final SpectralOps SPECTRAL = new SpectralOps();

    private static final Map<Class<? extends Op>, GpuOp> TABLE = Map.ofEntries(
            Map.entry(Op.Binary.class, ELEMENTWISE),
            Map.entry(Op.Unary.class, ELEMENTWISE),
            Map.entry(Op.Scale.class, ELEMENTWISE),
            Map.entry(Op.Snake.class, ELEMENTWISE),
            Map.entry(Op.MatMul.class, new MatMulOp()),
            Map.entry(Op.Conv1d.class, new ConvOps()),
            Map.entry(Op.ConvTranspose1d.class, new ConvOps()),
            Map.entry(Op.Pad.class, LAYOUT),
            Map.entry(Op.Concat.class, LAYOUT),
            Map.entry(Op.Contiguous.class, LAYOUT),
            Map.entry(Op.Cast.class, LAYOUT),
            Map.entry(Op.LayerNorm.class, ROWS),
            Map.entry(Op.RmsNorm.class, ROWS),
            Map.entry(Op.GroupNorm.class, ROWS),
            Map.entry(Op.Softmax.class, ROWS),
            Map.entry(Op.Reduce.class, ROWS),
            Map.entry(Op.Argmax.class, ROWS),
            Map.entry(Op.GetRows.class, SEQUENCE),
            Map.entry(Op.Rope.class, SEQUENCE),
            Map.entry(Op.Attention.class, SEQUENCE),
            Map.entry(Op.Lstm.class, SEQUENCE),
            Map.entry(Op.Stft.class, SPECTRAL),
            Map.entry(Op.Istft.class, SPECTRAL),
            Map.entry(Op.Magnitude.class, SPECTRAL));

    private GpuOps() {}

    static boolean supports(Tensor node, DeviceLimits limits) {
        GpuOp op = TABLE.get(node.op().getClass());
        return op != null && op.supports(node, limits);
    }

    static void bind(Tensor node, Binding b) {
        GpuOp op = TABLE.get(node.op().getClass());
        if (op == null || !op.supports(node, b.backend.limits())) throw new IllegalArgumentException("the " + b.backend.vendorName() + " backend does not support " + node);
        op.bind(node, b);
    }
}
