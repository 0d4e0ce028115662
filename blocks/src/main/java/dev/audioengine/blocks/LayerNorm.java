package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.weights.WeightScope;

/** PyTorch's LayerNorm over the last axis; the shift is optional (Moonshine's norms have bias=False). */
public final class LayerNorm implements Norm {
    private final HostTensor weight;
    private final HostTensor bias;
    private final float eps;

    public LayerNorm(HostTensor weight, HostTensor bias, float eps) {
        if (weight == null && bias != null) throw new IllegalArgumentException("a LayerNorm shift without a scale");
        this.weight = weight;
        this.bias = bias;
        this.eps = eps;
    }

    /** {@code weight} and, when the file has it, {@code bias}. */
    public static LayerNorm load(WeightScope scope, float eps) {
        return new LayerNorm(scope.tensor("weight"), scope.optionalTensor("bias"), eps);
    }

    @Override
    public Tensor apply(GraphBuilder g, Tensor x) {
        return g.layerNorm(x, weight == null ? null : g.constant(weight), bias == null ? null : g.constant(bias), eps);
    }
}
