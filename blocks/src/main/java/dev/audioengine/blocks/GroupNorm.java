package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * PyTorch's GroupNorm on x [B, C, ...]: statistics per batch item and group of C/groups channels,
 * then a per-channel scale and shift. Moonshine's stem uses one group (normalizing each item over
 * all channels and time).
 */
public final class GroupNorm {
    private final int groups;
    private final HostTensor weight;
    private final HostTensor bias;
    private final float eps;

    public GroupNorm(int groups, HostTensor weight, HostTensor bias, float eps) {
        if ((weight == null) != (bias == null))
            throw new IllegalArgumentException("GroupNorm needs both scale and shift, or neither");
        if (weight != null && (weight.shape().rank() != 1 || !weight.shape().equals(bias.shape()))) {
            throw new IllegalArgumentException(
                    "GroupNorm scale and shift are [C]: got " + weight.shape() + " and " + bias.shape());
        }
        this.groups = groups;
        this.weight = weight;
        this.bias = bias;
        this.eps = eps;
    }

    public static GroupNorm load(WeightScope scope, int groups, float eps) {
        return new GroupNorm(groups, flat(scope.tensor("weight")), flat(scope.tensor("bias")), eps);
    }

    /** Exports broadcast the affine parameters as [C, 1]; the op wants [C]: a view of the store's tensor, owned by the store. */
    private static HostTensor flat(HostTensor t) {
        return t.shape().rank() == 1 ? t : HostTensor.wrap(t.dtype(), Shape.of(t.elements()), t.data());
    }

    public Tensor apply(GraphBuilder g, Tensor x) {
        return g.groupNorm(
                x, groups, weight == null ? null : g.constant(weight), bias == null ? null : g.constant(bias), eps);
    }
}
