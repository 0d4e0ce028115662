package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.weights.WeightScope;

/** x / sqrt(mean(x²) + eps) · weight over the last axis (Llama's RMSNorm). */
public final class RmsNorm implements Norm {
    private final HostTensor weight;
    private final float eps;

    public RmsNorm(HostTensor weight, float eps) {
        this.weight = weight;
        this.eps = eps;
    }

    public static RmsNorm load(WeightScope scope, float eps) { return new RmsNorm(scope.tensor("weight"), eps); }

    @Override
    public Tensor apply(GraphBuilder g, Tensor x) {
        return g.rmsNorm(x, weight == null ? null : g.constant(weight), eps);
    }
}
