package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * PyTorch's ConvTranspose1d on x [B, Cin, T]: weight [Cin, Cout/groups, K] in F32 (weight norm
 * folded at load over its first axis, as weight_norm's default dim=0 does for transposed convs),
 * optional bias [Cout].
 */
public final class ConvTranspose1d {
    private final HostTensor weight;
    private final HostTensor bias;
    private final int stride, padding, outputPadding, dilation, groups;

    public ConvTranspose1d(HostTensor weight, HostTensor bias, int stride, int padding, int outputPadding, int dilation, int groups) {
        if (weight.shape().rank() != 3) throw new IllegalArgumentException("a ConvTranspose1d weight is [Cin, Cout/groups, K], got " + weight.shape());
        this.weight = weight;
        this.bias = bias;
        this.stride = stride;
        this.padding = padding;
        this.outputPadding = outputPadding;
        this.dilation = dilation;
        this.groups = groups;
    }

    public static ConvTranspose1d load(WeightScope scope, int stride, int padding, int outputPadding, int dilation, int groups) {
        return new ConvTranspose1d(WeightNorm.weight(scope), scope.optionalTensor("bias"), stride, padding, outputPadding, dilation, groups);
    }

    /** x [B, Cin, T] → [B, Cout, (T − 1)·stride − 2·padding + dilation·(K − 1) + outputPadding + 1]. */
    public Tensor apply(GraphBuilder g, Tensor x) {
        return g.convTranspose1d(x, g.constant(weight), bias == null ? null : g.constant(bias), stride, padding, outputPadding, dilation, groups);
    }
}
