package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * PyTorch's Linear: y = x · Wᵀ + b over the last axis, W [out, in] in the session's weight type
 * (the matmul reads F16, BF16 or Q8_0 weights directly), b [out] F32 and optional.
 */
public final class Linear {
    private final HostTensor weight;
    private final HostTensor bias;

    public Linear(HostTensor weight, HostTensor bias) {
        if (weight.shape().rank() != 2)
            throw new IllegalArgumentException("a Linear weight is [out, in], got " + weight.shape());
        if (bias != null
                && (bias.shape().rank() != 1
                        || bias.shape().dim(0) != weight.shape().dim(0))) {
            throw new IllegalArgumentException(
                    "a Linear bias is [" + weight.shape().dim(0) + "], got " + bias.shape());
        }
        this.weight = weight;
        this.bias = bias;
    }

    /** {@code weight} and, when the file has it, {@code bias} of the scope. */
    public static Linear load(WeightScope scope) {
        return new Linear(scope.weight("weight"), scope.optionalTensor("bias"));
    }

    /** {@code weight} only, for modules built with bias=False even where a file happens to hold one. */
    public static Linear loadWithoutBias(WeightScope scope) {
        return new Linear(scope.weight("weight"), null);
    }

    /** The element type the product reads its weight in (F32, F16, BF16 or a block type). */
    public dev.audioengine.api.tensor.DType weightType() {
        return weight.dtype();
    }

    public long inFeatures() {
        return weight.shape().dim(1);
    }

    public long outFeatures() {
        return weight.shape().dim(0);
    }

    public boolean hasBias() {
        return bias != null;
    }

    /** x [..., in] → [..., out]. */
    public Tensor apply(GraphBuilder g, Tensor x) {
        if (x.dim(-1) != inFeatures()) {
            throw new IllegalArgumentException("Linear of " + inFeatures() + " inputs applied to " + x.shape());
        }
        return g.linear(x, g.constant(weight), bias == null ? null : g.constant(bias));
    }
}
