package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

import java.util.Map;

/** The CPU's table of kernels, one per op family: ggml's explicit function table, in Java. */
public final class CpuKernels {
    private static final Map<Class<? extends Op>, CpuKernel> TABLE = Map.ofEntries(
            Map.entry(Op.Binary.class, new BinaryKernel()),
            Map.entry(Op.Unary.class, new UnaryKernel()),
            Map.entry(Op.Scale.class, new ScaleKernel()),
            Map.entry(Op.Snake.class, new SnakeKernel()),
            Map.entry(Op.MatMul.class, new MatMulKernel()),
            Map.entry(Op.Conv1d.class, new Conv1dKernel()),
            Map.entry(Op.ConvTranspose1d.class, new ConvTranspose1dKernel()),
            Map.entry(Op.Pad.class, new PadKernel()),
            Map.entry(Op.Concat.class, new ConcatKernel()),
            Map.entry(Op.Contiguous.class, new ContiguousKernel()),
            Map.entry(Op.Cast.class, new CastKernel()),
            Map.entry(Op.LayerNorm.class, new LayerNormKernel()),
            Map.entry(Op.RmsNorm.class, new RmsNormKernel()),
            Map.entry(Op.GroupNorm.class, new GroupNormKernel()),
            Map.entry(Op.Softmax.class, new SoftmaxKernel()),
            Map.entry(Op.Reduce.class, new ReduceKernel()),
            Map.entry(Op.Argmax.class, new ArgmaxKernel()),
            Map.entry(Op.GetRows.class, new GetRowsKernel()),
            Map.entry(Op.Rope.class, new RopeKernel()),
            Map.entry(Op.Attention.class, new AttentionKernel()),
            Map.entry(Op.Lstm.class, new LstmKernel()),
            Map.entry(Op.Stft.class, new StftKernel()),
            Map.entry(Op.Istft.class, new IstftKernel()),
            Map.entry(Op.Magnitude.class, new MagnitudeKernel()));

    private CpuKernels() {}

    public static boolean supports(Tensor node) {
        CpuKernel k = TABLE.get(node.op().getClass());
        return k != null && k.supports(node);
    }

    public static Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuKernel k = TABLE.get(node.op().getClass());
        if (k == null || !k.supports(node)) throw new IllegalArgumentException("the CPU backend does not support " + node);
        return k.bind(node, out, in, ctx);
    }
}
