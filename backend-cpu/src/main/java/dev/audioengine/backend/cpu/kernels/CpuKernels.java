package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.elementwise.BinaryKernel;
import dev.audioengine.backend.cpu.kernels.elementwise.ScaleKernel;
import dev.audioengine.backend.cpu.kernels.elementwise.SnakeKernel;
import dev.audioengine.backend.cpu.kernels.elementwise.UnaryKernel;
import dev.audioengine.backend.cpu.kernels.layout.CastKernel;
import dev.audioengine.backend.cpu.kernels.layout.ConcatKernel;
import dev.audioengine.backend.cpu.kernels.layout.ContiguousKernel;
import dev.audioengine.backend.cpu.kernels.layout.PadKernel;
import dev.audioengine.backend.cpu.kernels.layout.WriteSliceKernel;
import dev.audioengine.backend.cpu.kernels.linear.Conv1dKernel;
import dev.audioengine.backend.cpu.kernels.linear.ConvTranspose1dKernel;
import dev.audioengine.backend.cpu.kernels.linear.MatMulKernel;
import dev.audioengine.backend.cpu.kernels.reduction.ArgmaxKernel;
import dev.audioengine.backend.cpu.kernels.reduction.GroupNormKernel;
import dev.audioengine.backend.cpu.kernels.reduction.LayerNormKernel;
import dev.audioengine.backend.cpu.kernels.reduction.ReduceKernel;
import dev.audioengine.backend.cpu.kernels.reduction.RmsNormKernel;
import dev.audioengine.backend.cpu.kernels.reduction.SoftmaxKernel;
import dev.audioengine.backend.cpu.kernels.sequence.AttentionKernel;
import dev.audioengine.backend.cpu.kernels.sequence.GetRowsKernel;
import dev.audioengine.backend.cpu.kernels.sequence.KeyMaskKernel;
import dev.audioengine.backend.cpu.kernels.sequence.LstmKernel;
import dev.audioengine.backend.cpu.kernels.sequence.RopeKernel;
import dev.audioengine.backend.cpu.kernels.spectral.IstftKernel;
import dev.audioengine.backend.cpu.kernels.spectral.MagnitudeKernel;
import dev.audioengine.backend.cpu.kernels.spectral.StftKernel;

/**
 * The CPU's table of kernels, one per op, each in the package of its {@link Op.Family}
 * ({@code kernels.elementwise}, {@code .linear}, {@code .layout}, {@code .reduction},
 * {@code .sequence}, {@code .spectral}): ggml's explicit function table, in Java. The table is one
 * switch over the sealed {@link Op} without a default branch, so an op added to the graph API does
 * not compile until the CPU says how it computes it (or that it is a leaf or a view).
 */
public final class CpuKernels {
    private static final CpuKernel BINARY = new BinaryKernel(),
            UNARY = new UnaryKernel(),
            SCALE = new ScaleKernel(),
            SNAKE = new SnakeKernel(),
            MATMUL = new MatMulKernel(),
            CONV1D = new Conv1dKernel(),
            CONV_TRANSPOSE1D = new ConvTranspose1dKernel(),
            PAD = new PadKernel(),
            CONCAT = new ConcatKernel(),
            CONTIGUOUS = new ContiguousKernel(),
            CAST = new CastKernel(),
            LAYER_NORM = new LayerNormKernel(),
            RMS_NORM = new RmsNormKernel(),
            GROUP_NORM = new GroupNormKernel(),
            SOFTMAX = new SoftmaxKernel(),
            REDUCE = new ReduceKernel(),
            ARGMAX = new ArgmaxKernel(),
            GET_ROWS = new GetRowsKernel(),
            ROPE = new RopeKernel(),
            KEY_MASK = new KeyMaskKernel(),
            ATTENTION = new AttentionKernel(),
            LSTM = new LstmKernel(),
            STFT = new StftKernel(),
            ISTFT = new IstftKernel(),
            MAGNITUDE = new MagnitudeKernel(),
            WRITE_SLICE = new WriteSliceKernel();

    private CpuKernels() {}

    /** The kernel of {@code op}, or null for leaves and views, which run none. */
    private static CpuKernel kernelOf(Op op) {
        return switch (op) {
            case Op.Input i -> null;
            case Op.Constant c -> null;
            case Op.State s -> null;
            case Op.Slice s -> null;
            case Op.Permute p -> null;
            case Op.Reshape r -> null;
            case Op.Binary b -> BINARY;
            case Op.Unary u -> UNARY;
            case Op.Scale s -> SCALE;
            case Op.Snake s -> SNAKE;
            case Op.MatMul m -> MATMUL;
            case Op.Conv1d c -> CONV1D;
            case Op.ConvTranspose1d c -> CONV_TRANSPOSE1D;
            case Op.Pad p -> PAD;
            case Op.Concat c -> CONCAT;
            case Op.Contiguous c -> CONTIGUOUS;
            case Op.Cast c -> CAST;
            case Op.WriteSlice w -> WRITE_SLICE;
            case Op.LayerNorm n -> LAYER_NORM;
            case Op.RmsNorm n -> RMS_NORM;
            case Op.GroupNorm n -> GROUP_NORM;
            case Op.Softmax s -> SOFTMAX;
            case Op.Reduce r -> REDUCE;
            case Op.Argmax a -> ARGMAX;
            case Op.GetRows g -> GET_ROWS;
            case Op.Rope r -> ROPE;
            case Op.KeyMask k -> KEY_MASK;
            case Op.Attention a -> ATTENTION;
            case Op.Lstm l -> LSTM;
            case Op.Stft s -> STFT;
            case Op.Istft s -> ISTFT;
            case Op.Magnitude m -> MAGNITUDE;
        };
    }

    public static boolean supports(Tensor node) {
        CpuKernel k = kernelOf(node.op());
        return k != null && k.supports(node);
    }

    public static Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuKernel k = kernelOf(node.op());
        if (k == null || !k.supports(node))
            throw new IllegalArgumentException("the CPU backend does not support " + node);
        return k.bind(node, out, in, ctx);
    }
}
