package dev.audioengine.models.kokoro;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * StyleTTS2's style-conditioned norms: fc(style) → (γ, β), out = (1 + γ)·norm(x) + β. AdaIN1d normalizes each
 * channel over time (InstanceNorm1d without affine, eps 1e-5) on [B, C, T]; AdaLayerNorm normalizes each step over
 * channels on [B, T, C].
 */
final class AdaIn {
    private static final float EPS = 1e-5f;
    private final Linear fc;
    private final long channels;

    AdaIn(Linear fc) {
        if (fc.outFeatures() % 2 != 0) throw new IllegalArgumentException("an AdaIN fc gives 2C values, got " + fc.outFeatures());
        this.fc = fc;
        this.channels = fc.outFeatures() / 2;
    }

    /** {@code fc.weight}, {@code fc.bias} under the scope; {@code channels} checked. */
    static AdaIn load(WeightScope scope, long channels) {
        AdaIn a = new AdaIn(Linear.load(scope.child("fc")));
        if (a.channels != channels) throw new IllegalArgumentException(scope.prefix() + ": " + a.channels + " channels, expected " + channels);
        return a;
    }

    long channels() { return channels; }

    /** AdaIN1d on x [1, C, T] with style [1, S]. */
    Tensor instance(GraphBuilder g, Tensor x, Tensor style) {
        Tensor h = fc.apply(g, style);
        Tensor gamma = g.reshape(g.slice(h, 1, 0, channels), 1, channels, 1);
        Tensor beta = g.reshape(g.slice(h, 1, channels, 2 * channels), 1, channels, 1);
        Tensor norm = g.groupNorm(x, Math.toIntExact(channels), null, null, EPS);
        return g.add(g.mul(norm, g.scale(gamma, 1f, 1f)), beta);
    }

    /** AdaLayerNorm on x [1, T, C] with style [1, S]. */
    Tensor layer(GraphBuilder g, Tensor x, Tensor style) {
        Tensor h = fc.apply(g, style);
        Tensor gamma = g.reshape(g.slice(h, 1, 0, channels), 1, 1, channels);
        Tensor beta = g.reshape(g.slice(h, 1, channels, 2 * channels), 1, 1, channels);
        Tensor norm = g.layerNorm(x, null, null, EPS);
        return g.add(g.mul(norm, g.scale(gamma, 1f, 1f)), beta);
    }
}
