package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * PyTorch's Linear: y = x · Wᵀ + b over the last axis, W [out, in] in the session's weight type
 * (the matmul reads F16, BF16 or Q8_0 weights directly), b [out] F32 and optional.
 */
public final class Linear {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
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

    /**
     * Several Linears over the same input as one: their weights' rows one after another (and their biases), so one
     * product gives every part's outputs side by side along the last axis. A product is what a GPU's decoder step
     * pays for per launch, not per row, and a row of any weight type (whole blocks for a quantized one) is the same
     * bytes in the stacked weight, so each output is the same dot product as the part's own.
     *
     * @param store owns the stacked copy (made once under {@code key}, and kept with the store's prepared copy)
     * @param key   names the copy in the store; the caller's weights' names, so that two stacks never share one
     * @param parts one weight type, one input width; where some have a bias, the others' part of the stacked bias is
     *     zero (Whisper's keys have none, its queries and values do)
     * @return a Linear of the parts' summed outputs
     * @throws IllegalArgumentException if the parts differ in type or input width
     */
    public static Linear stacked(WeightStore store, String key, Linear... parts) {
        Linear first = parts[0];
        long rows = 0;
        boolean anyBias = false;
        for (Linear p : parts) {
            if (p.weight.dtype() != first.weight.dtype() || p.inFeatures() != first.inFeatures()) {
                throw new IllegalArgumentException("cannot stack " + p.weight + " onto " + first.weight
                        + ": stacked weights share one type and one input width");
            }
            rows += p.outFeatures();
            anyBias |= p.hasBias();
        }
        long total = rows;
        HostTensor weight = store.derivedWeight(key + " weight", () -> {
            HostTensor t = HostTensor.allocate(first.weight.dtype(), Shape.of(total, first.inFeatures()));
            long at = 0;
            for (Linear p : parts) {
                MemorySegment.copy(p.weight.data(), 0, t.data(), at, p.weight.byteSize());
                at += p.weight.byteSize();
            }
            return t;
        });
        HostTensor bias = !anyBias
                ? null
                : store.derivedWeight(key + " bias", () -> {
                    HostTensor t = HostTensor.allocate(DType.F32, Shape.of(total)); // zeros where a part has none
                    long at = 0;
                    for (Linear p : parts) {
                        if (p.hasBias())
                            MemorySegment.copy(p.bias.toFloatArray(), 0, t.data(), FLOAT, at, (int) p.outFeatures());
                        at += 4 * p.outFeatures();
                    }
                    return t;
                });
        return new Linear(weight, bias);
    }

    /** The element type the product reads its weight in (F32, F16, BF16 or a block type). */
    public DType weightType() {
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
