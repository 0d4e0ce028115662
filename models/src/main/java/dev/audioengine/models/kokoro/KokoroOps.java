package dev.audioengine.models.kokoro;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;

/** The few compositions Kokoro's graphs need that the graph API has no op for. */
final class KokoroOps {
    private KokoroOps() {}

    /** LeakyReLU(slope) as slope·x + (1 − slope)·relu(x). */
    static Tensor leakyRelu(GraphBuilder g, Tensor x, float slope) {
        return g.add(g.scale(x, slope), g.scale(g.relu(x), 1f - slope));
    }

    /** F.interpolate(scale_factor=2, mode='nearest') on [B, C, T] → [B, C, 2T]: each step repeated. */
    static Tensor upsampleNearest2(GraphBuilder g, Tensor x) {
        long b = x.dim(0), c = x.dim(1), t = x.dim(2);
        Tensor col = g.reshape(x, b, c, t, 1);
        return g.reshape(g.concat(3, col, col), b, c, 2 * t);
    }

    /** [B, T, C] ↔ [B, C, T], made contiguous for the convolutions and LSTMs that follow. */
    static Tensor swapLast(GraphBuilder g, Tensor x) {
        return g.contiguous(g.transpose(x, 1, 2));
    }
}
