package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * PyTorch's Conv1d on x [B, Cin, T]: weight [Cout, Cin/groups, K] in F32 (weight norm folded at
 * load, see {@link WeightNorm}), optional bias [Cout].
 */
public final class Conv1d {
    private final HostTensor weight;
    private final HostTensor bias;
    private final int stride, padding, dilation, groups;

    public Conv1d(HostTensor weight, HostTensor bias, int stride, int padding, int dilation, int groups) {
        if (weight.shape().rank() != 3)
            throw new IllegalArgumentException("a Conv1d weight is [Cout, Cin/groups, K], got " + weight.shape());
        this.weight = weight;
        this.bias = bias;
        this.stride = stride;
        this.padding = padding;
        this.dilation = dilation;
        this.groups = groups;
    }

    /** The weight (or its weight-norm parameters) and, when present, the bias of the scope. */
    public static Conv1d load(WeightScope scope, int stride, int padding, int dilation, int groups) {
        return new Conv1d(WeightNorm.weight(scope), scope.optionalTensor("bias"), stride, padding, dilation, groups);
    }

    public long outChannels() {
        return weight.shape().dim(0);
    }

    public int kernel() {
        return Math.toIntExact(weight.shape().dim(2));
    }

    /** x [B, Cin, T] → [B, Cout, (T + 2·padding − dilation·(K−1) − 1) / stride + 1]. */
    public Tensor apply(GraphBuilder g, Tensor x) {
        return g.conv1d(
                x, g.constant(weight), bias == null ? null : g.constant(bias), stride, padding, dilation, groups);
    }
}
