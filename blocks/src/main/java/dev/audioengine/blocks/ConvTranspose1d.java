package dev.audioengine.blocks;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import java.util.Set;

/**
 * PyTorch's ConvTranspose1d on x [B, Cin, T]: weight [Cin, Cout/groups, K] in F32 (weight norm
 * folded at load over its first axis, as weight_norm's default dim=0 does for transposed convs),
 * optional bias [Cout].
 *
 * <p>Two lowerings, chosen from the effective capability set at load (as attention's are): the backend's
 * conv_transpose1d op (GEMM + col2im, {@code CONV_TRANSPOSE1D_COL2IM}), or plain ops every backend
 * runs. The plain one is polyphase: output sample {@code t} with {@code t + padding = q·stride + r}
 * only meets taps {@code k ≡ r (mod stride)}, so each phase {@code r} is an ordinary conv1d of x with
 * the flipped sub-kernel {@code w[m·stride + r]}; one conv1d computes all phases as stride·Cout
 * channels and a permute interleaves them. Same multiply count as the op, no zero-stuffed input.
 * Dilated kernels (no model here has one) take the zero-insertion form instead.
 */
public final class ConvTranspose1d {
    private final HostTensor weight;
    private final HostTensor bias;
    private final int stride, padding, outputPadding, dilation, groups;
    private final WeightStore owner;
    private final String name;
    private final boolean col2im;

    /**
     * {@code col2im}: the effective set has CONV_TRANSPOSE1D_COL2IM; otherwise {@code owner} keeps the plain lowering's
     * rearranged weights (made once, on first use), named after {@code name}.
     */
    public ConvTranspose1d(
            HostTensor weight,
            HostTensor bias,
            int stride,
            int padding,
            int outputPadding,
            int dilation,
            int groups,
            WeightStore owner,
            String name,
            boolean col2im) {
        if (weight.shape().rank() != 3)
            throw new IllegalArgumentException(
                    "a ConvTranspose1d weight is [Cin, Cout/groups, K], got " + weight.shape());
        this.weight = weight;
        this.bias = bias;
        this.stride = stride;
        this.padding = padding;
        this.outputPadding = outputPadding;
        this.dilation = dilation;
        this.groups = groups;
        this.owner = owner;
        this.name = name;
        this.col2im = col2im;
    }

    public static ConvTranspose1d load(
            WeightScope scope,
            int stride,
            int padding,
            int outputPadding,
            int dilation,
            int groups,
            Set<Capability> effective) {
        return new ConvTranspose1d(
                WeightNorm.weight(scope),
                scope.optionalTensor("bias"),
                stride,
                padding,
                outputPadding,
                dilation,
                groups,
                scope.store(),
                scope.prefix(),
                effective.contains(Capability.CONV_TRANSPOSE1D_COL2IM));
    }

    /** x [B, Cin, T] → [B, Cout, (T − 1)·stride − 2·padding + dilation·(K − 1) + outputPadding + 1]. */
    public Tensor apply(GraphBuilder g, Tensor x) {
        Tensor b = bias == null ? null : g.constant(bias);
        if (col2im)
            return g.convTranspose1d(x, g.constant(weight), b, stride, padding, outputPadding, dilation, groups);
        return dilation == 1 ? polyphase(g, x, b) : zeroInserted(g, x, b);
    }

    private long cin() {
        return weight.shape().dim(0);
    }

    private long coutPerGroup() {
        return weight.shape().dim(1);
    }

    private int kernel() {
        return Math.toIntExact(weight.shape().dim(2));
    }

    private long outputLength(long t) {
        return (t - 1) * stride - 2L * padding + (long) dilation * (kernel() - 1) + outputPadding + 1;
    }

    private Tensor polyphase(GraphBuilder g, Tensor x, Tensor b) {
        long t = x.dim(2), out = outputLength(t), cout = coutPerGroup() * groups;
        int taps = (kernel() + stride - 1) / stride;
        long q = (out + padding + stride - 1)
                / stride; // phase outputs: q·stride covers every output sample after the padding
        Tensor phases = g.conv1d(
                g.pad1d(x, PadMode.ZERO, taps - 1, Math.max(0, q - t)),
                g.constant(phaseWeights(taps)),
                null,
                1,
                0,
                1,
                groups);
        if (phases.dim(2) > q) phases = g.slice(phases, 2, 0, q); // a padding larger than the kernel crops whole phases
        // channels are (group, phase, channel in group): interleave the phases along time (batch and group folded: rank
        // 4)
        Tensor y = g.reshape(
                g.permute(g.reshape(phases, x.dim(0) * groups, stride, coutPerGroup(), q), 0, 2, 3, 1),
                x.dim(0),
                cout,
                q * stride);
        y = g.slice(y, 2, padding, padding + out);
        return b == null ? y : g.add(y, g.reshape(b, 1, cout, 1));
    }

    /** [groups·stride·Cout/groups, Cin/groups, taps]: phase r's flipped sub-kernel, w'[m'] = w[(taps − 1 − m')·stride + r] (0 past K). */
    private HostTensor phaseWeights(int taps) {
        return owner.derived("conv_transpose1d phases " + name, () -> {
            float[] w = weight.toFloatArray();
            int k = kernel();
            long cinPer = cin() / groups, coutPer = coutPerGroup();
            float[] p = new float[Math.toIntExact(groups * stride * coutPer * cinPer * taps)];
            for (int gi = 0; gi < groups; gi++)
                for (int r = 0; r < stride; r++)
                    for (long co = 0; co < coutPer; co++)
                        for (long ci = 0; ci < cinPer; ci++)
                            for (int m = 0; m < taps; m++) {
                                int tap = (taps - 1 - m) * stride + r;
                                if (tap >= k) continue;
                                long row = (gi * (long) stride + r) * coutPer + co;
                                p[Math.toIntExact((row * cinPer + ci) * taps + m)] =
                                        w[Math.toIntExact(((gi * cinPer + ci) * coutPer + co) * k + tap)];
                            }
            return HostTensor.ofFloats(Shape.of(groups * stride * coutPer, cinPer, taps), p);
        });
    }

    /** Dilated kernels: zeros between the input samples, then a conv1d with the flipped kernel. */
    private Tensor zeroInserted(GraphBuilder g, Tensor x, Tensor b) {
        long bt = x.dim(0), c = x.dim(1), t = x.dim(2), span = (long) dilation * (kernel() - 1);
        Tensor up = x;
        if (stride > 1) {
            Tensor z =
                    g.pad(g.reshape(x, bt, c, t, 1), PadMode.ZERO, new long[4], new long[] {0, 0, 0, stride - 1}, 0f);
            up = g.slice(g.reshape(z, bt, c, t * stride), 2, 0, (t - 1) * stride + 1);
        }
        long left = span - padding, right = span - padding + outputPadding;
        if (left < 0) up = g.slice(up, 2, -left, up.dim(2));
        if (right < 0) up = g.slice(up, 2, 0, up.dim(2) + right);
        up = g.pad1d(up, PadMode.ZERO, Math.max(0, left), Math.max(0, right));
        return g.conv1d(up, g.constant(flipped()), b, 1, 0, dilation, groups);
    }

    /** [Cout, Cin/groups, K] with the taps reversed: a transposed conv is the correlation with the flipped kernel. */
    private HostTensor flipped() {
        return owner.derived("conv_transpose1d flipped " + name, () -> {
            float[] w = weight.toFloatArray();
            int k = kernel();
            long cinPer = cin() / groups, coutPer = coutPerGroup();
            float[] f = new float[w.length];
            for (int gi = 0; gi < groups; gi++)
                for (long ci = 0; ci < cinPer; ci++)
                    for (long co = 0; co < coutPer; co++)
                        for (int tap = 0; tap < k; tap++)
                            f[Math.toIntExact(((gi * coutPer + co) * cinPer + ci) * k + (k - 1 - tap))] =
                                    w[Math.toIntExact(((gi * cinPer + ci) * coutPer + co) * k + tap)];
            return HostTensor.ofFloats(Shape.of(groups * coutPer, cinPer, k), f);
        });
    }
}
