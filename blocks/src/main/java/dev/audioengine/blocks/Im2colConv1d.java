package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * A Conv1d (groups 1) on time-major activations x [B, T, Cin] lowered to one GEMM: each kernel
 * tap is a strided view of the (zero-padded) input, the K views are concatenated along channels
 * ([B, Tout, K·Cin], the im2col), and one matmul against the weight rearranged taps-outermost
 * ([Cout, K·Cin], element (o, k·Cin + c) = w(o, c, k)) gives [B, Tout, Cout]. Every output frame
 * of every batch item is a row of that GEMM, which is what makes small convolutions over many
 * short windows fast (Silero VAD's encoder is written this way). Same result as
 * {@link Conv1d} on the channel-major layout.
 */
public final class Im2colConv1d {
    private final HostTensor tapsOutermost;
    private final HostTensor bias;
    private final int kernel, cin, stride, padding, dilation;

    /** {@code weight} [Cout, Cin, K] as PyTorch stores it; {@code constants} keeps the rearranged copy. */
    public Im2colConv1d(HostTensor weight, HostTensor bias, int stride, int padding, int dilation,
                        dev.audioengine.blocks.weights.WeightStore constants, String key) {
        if (weight.shape().rank() != 3) throw new IllegalArgumentException("a Conv1d weight is [Cout, Cin, K], got " + weight.shape());
        if (stride < 1 || dilation < 1 || padding < 0) throw new IllegalArgumentException("stride " + stride + ", padding " + padding + ", dilation " + dilation);
        this.kernel = Math.toIntExact(weight.shape().dim(2));
        this.cin = Math.toIntExact(weight.shape().dim(1));
        this.tapsOutermost = constants.derived("im2col weight " + key, () -> rearranged(weight));
        this.bias = bias;
        this.stride = stride;
        this.padding = padding;
        this.dilation = dilation;
    }

    /** The weight (or its weight-norm parameters) and optional bias of the scope. */
    public static Im2colConv1d load(WeightScope scope, int stride, int padding, int dilation) {
        return new Im2colConv1d(WeightNorm.weight(scope), scope.optionalTensor("bias"), stride, padding, dilation, scope.store(),
                scope.full("weight"));
    }

    /** x [B, T, Cin] → [B, Tout, Cout], Tout = (T + 2·padding − dilation·(K − 1) − 1) / stride + 1. */
    public Tensor apply(GraphBuilder g, Tensor x) {
        if (x.rank() != 3 || x.dim(2) != cin) throw new IllegalArgumentException("im2col conv of " + cin + " channels wants [B, T, " + cin + "], got " + x.shape());
        long span = (long) dilation * (kernel - 1) + 1;
        long tOut = (x.dim(1) + 2L * padding - span) / stride + 1;
        if (tOut < 1) throw new IllegalArgumentException("input of " + x.dim(1) + " frames is shorter than the kernel span " + span);
        Tensor src = padding == 0 ? x : g.pad(x, PadMode.ZERO, new long[] {0, padding, 0}, new long[] {0, padding, 0}, 0f);
        Tensor[] taps = new Tensor[kernel];
        for (int k = 0; k < kernel; k++) {
            long start = (long) k * dilation;
            taps[k] = g.slice(src, 1, start, start + (long) stride * (tOut - 1) + 1, stride);
        }
        Tensor cols = kernel == 1 ? taps[0] : g.concat(2, taps);
        Tensor y = g.matmul(cols, g.constant(tapsOutermost));
        return bias == null ? y : g.add(y, g.constant(bias));
    }

    private static HostTensor rearranged(HostTensor w) {
        int cout = (int) w.shape().dim(0), cin = (int) w.shape().dim(1), k = (int) w.shape().dim(2);
        float[] src = w.toFloatArray(), dst = new float[src.length];
        for (int o = 0; o < cout; o++) {
            for (int c = 0; c < cin; c++) {
                for (int j = 0; j < k; j++) dst[(o * k + j) * cin + c] = src[(o * cin + c) * k + j];
            }
        }
        return HostTensor.ofFloats(Shape.of(cout, (long) k * cin), dst);
    }
}
