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

    /**
     * As {@link #apply(GraphBuilder, Tensor)} on x [B, C, T] holding items of different lengths padded to T: each
     * item's statistics over its first n_b steps only, so that it normalizes as it would alone. {@code mask} is
     * [B, 1, T], 1 for the steps an item has and 0 past them (exp of a {@link GraphBuilder#keyMask} row); the output
     * is 0 past an item's length before the shift. Composed of sums, so its rounding is not the groupNorm op's.
     */
    public Tensor apply(GraphBuilder g, Tensor x, Tensor mask) {
        if (x.rank() != 3 || mask.rank() != 3 || mask.dim(0) != x.dim(0) || mask.dim(1) != 1 || mask.dim(2) != x.dim(2))
            throw new IllegalArgumentException(
                    "masked GroupNorm wants x [B, C, T] and mask [B, 1, T]: got " + x.shape() + " and " + mask.shape());
        long b = x.dim(0), c = x.dim(1), t = x.dim(2);
        Tensor grouped = g.reshape(x, b, groups, c / groups, t);
        Tensor m = g.reshape(mask, b, 1, 1, t);
        Tensor count = g.scale(g.sum(m, 3, true), c / groups); // [B, 1, 1, 1]: values per group of an item
        Tensor mean = g.div(g.sum(g.sum(g.mul(grouped, m), 3, true), 2, true), count);
        Tensor centred = g.mul(g.sub(grouped, mean), m);
        Tensor variance = g.div(g.sum(g.sum(g.mul(centred, centred), 3, true), 2, true), count);
        Tensor y = g.reshape(g.div(centred, g.sqrt(g.scale(variance, 1f, eps))), b, c, t);
        if (weight == null) return y;
        return g.add(g.mul(y, g.reshape(g.constant(weight), c, 1)), g.reshape(g.constant(bias), c, 1));
    }
}
