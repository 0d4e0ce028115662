package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;

/** A normalization over the last axis (LayerNorm, RMSNorm), as the transformer layers take it. */
public interface Norm {
    /** x [..., N] → [..., N]. */
    Tensor apply(GraphBuilder g, Tensor x);
}
