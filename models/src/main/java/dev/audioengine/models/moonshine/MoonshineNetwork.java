package dev.audioengine.models.moonshine;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.MultiHeadAttention;

/**
 * The two graphs Moonshine runs, written against the blocks:
 * <ul>
 * <li>the <b>encoder</b> for one window length: audio → encoder states, and each decoder layer's cross-attention keys
 *     and values written into the cache (computed once per window, read by every step);</li>
 * <li>the <b>decoder step</b>: one token at a run-time position → its keys and values written into the self cache,
 *     attention over the cache under length masks, the next token's logits and their argmax. One compiled step serves
 *     every position of every window.</li>
 * </ul>
 */
final class MoonshineNetwork {
    /** Input names of the step graph; positions and lengths are I32 [1]. */
    static final String TOKEN = "token", POSITION = "position", SELF_LENGTH = "self_length", CROSS_LENGTH = "cross_length";
    static final String AUDIO = "audio", ZERO = "zero";

    private MoonshineNetwork() {}

    /** Audio [1, 1, samples] → outputs: encoder states [1, T, D]; side effects: the cross caches' first T rows. */
    static Graph encoder(MoonshineWeights w, int samples, int crossCapacity) {
        MoonshineConfig c = w.config();
        long frames = MoonshineConfig.frames(samples);
        if (frames < 1 || frames > crossCapacity) {
            throw new IllegalArgumentException(samples + " samples give " + frames + " encoder frames; this session holds 1 to " + crossCapacity);
        }
        GraphBuilder g = new GraphBuilder();
        Tensor memory = w.encode(g, g.input(AUDIO, Shape.of(1, 1, samples))).named("encoder_states");
        Tensor zero = g.input(ZERO, DType.I32, Shape.of(1));
        for (int l = 0; l < c.decoderLayers(); l++) {
            MultiHeadAttention cross = w.decoderLayers.get(l).cross();
            Shape cache = DecoderCache.shape(c, crossCapacity);
            g.writeSlice(g.state(DecoderCache.name("cross_k", l), cache), g.contiguous(cross.keys(g, memory, null)), 2, zero);
            g.writeSlice(g.state(DecoderCache.name("cross_v", l), cache), g.contiguous(cross.values(g, memory)), 2, zero);
        }
        return g.build(memory);
    }

    /**
     * One decoder step: outputs the next token (I32 [1, 1], greedy) and, when {@code withLogits}, the logits
     * [1, 1, V] (teacher forcing and tests).
     */
    static Graph step(MoonshineWeights w, int selfCapacity, int crossCapacity, boolean withLogits) {
        MoonshineConfig c = w.config();
        GraphBuilder g = new GraphBuilder();
        Tensor token = g.input(TOKEN, DType.I32, Shape.of(1, 1));
        Tensor position = g.input(POSITION, DType.I32, Shape.of(1));
        Tensor selfMask = g.keyMask(g.input(SELF_LENGTH, DType.I32, Shape.of(1)), 1, selfCapacity, false);
        Tensor crossMask = g.keyMask(g.input(CROSS_LENGTH, DType.I32, Shape.of(1)), 1, crossCapacity, false);
        Tensor h = g.getRows(g.constant(w.embedding), token); // [1, 1, D]
        for (int l = 0; l < c.decoderLayers(); l++) {
            MoonshineWeights.DecoderLayerWeights layer = w.decoderLayers.get(l);
            MultiHeadAttention self = layer.self();
            Tensor x = layer.selfNorm().apply(g, h);
            Shape selfShape = DecoderCache.shape(c, selfCapacity);
            Tensor keys = g.writeSlice(g.state(DecoderCache.name("self_k", l), selfShape), g.contiguous(self.keys(g, x, position)), 2, position);
            Tensor values = g.writeSlice(g.state(DecoderCache.name("self_v", l), selfShape), g.contiguous(self.values(g, x)), 2, position);
            h = g.add(h, self.output(g, self.attend(g, self.queries(g, x, position), keys, values, selfMask)));

            MultiHeadAttention cross = layer.cross();
            Shape crossShape = DecoderCache.shape(c, crossCapacity);
            Tensor ck = g.state(DecoderCache.name("cross_k", l), crossShape), cv = g.state(DecoderCache.name("cross_v", l), crossShape);
            h = g.add(h, cross.output(g, cross.attend(g, cross.queries(g, layer.crossNorm().apply(g, h), null), ck, cv, crossMask)));
            h = g.add(h, layer.ffn().apply(g, layer.ffnNorm().apply(g, h)));
        }
        Tensor logits = w.head.apply(g, w.decoderNorm.apply(g, h)).named("logits");
        Tensor next = g.argmax(logits, -1).named("next");
        return withLogits ? g.build(next, logits) : g.build(next);
    }
}
