package dev.audioengine.models.moonshine;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.EncoderLayer;
import dev.audioengine.blocks.FeedForward;
import dev.audioengine.blocks.GroupNorm;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.MultiHeadAttention;
import dev.audioengine.blocks.Rotary;
import java.util.List;

/**
 * The Moonshine network (transformers' MoonshineForConditionalGeneration) on the engine's ops: its configuration,
 * its weights as blocks, and the two graphs it runs, in forward order. d = hidden, I = intermediate, V = vocabulary,
 * H/Hkv = decoder heads/key-value heads, hd = head size, T = encoder frames.
 * <pre>
 * audio [1,1,S] → conv k127 s64 [d] → tanh → GroupNorm(1) → conv k7 s3 [2d] → GELU → conv k3 s2 [d] → GELU
 *   → transpose [1,T,d] → encoderLayers × (x + self-attn(LN x, partial rotary), + MLP(LN ·): fc1 GELU fc2)
 *   → LN → encoder states [1,T,d] → per decoder layer: cross keys/values [1,Hkv,T,hd] written into the cross cache
 *
 * token [1,1] → embedding row [1,1,d] → decoderLayers × (
 *     x + self-attn(LN x) over the self cache (this position's keys/values written at `position`, rotary, length mask),
 *     + cross-attn(LN ·) over the cross cache (length mask),
 *     + SwiGLU(LN ·): fc1 → [value | gate], silu(gate)·value → fc2 )
 *   → LN → head [1,1,V] → argmax → next token
 * </pre>
 * The encoder graph is built once per window length; one compiled step graph serves every position of every window
 * (fixed cache capacities, length masks: docs/STATE.md). Beside this file, {@code MoonshineWeights} reads the records
 * here from a file, {@code DecoderCache} holds the caches under the names and shapes below, {@code DecodingSession} runs
 * the graphs.
 */
public final class MoonshineNetwork {
    /** Input names of the step graph; positions and lengths are I32 [1]. */
    static final String TOKEN = "token",
            POSITION = "position",
            SELF_LENGTH = "self_length",
            CROSS_LENGTH = "cross_length";

    static final String AUDIO = "audio", ZERO = "zero";

    private MoonshineNetwork() {}

    /** The persistent tensor of one cache ({@code self_k}, {@code self_v}, {@code cross_k}, {@code cross_v}) of one decoder layer. */
    static String cacheName(String kind, int layer) {
        return "moonshine." + kind + "." + layer;
    }

    /** A cache's shape, [1, Hkv, capacity, hd]: keys or values of {@code capacity} positions. */
    static Shape cacheShape(MoonshineConfig c, int capacity) {
        return Shape.of(1, c.decoderKvHeads(), capacity, c.decoderHeadDim());
    }

    /**
     * The geometry of a Moonshine model (transformers' MoonshineConfig, the fields the network needs). The ONNX exports
     * carry no config, so the two released sizes are constants here; a Hugging Face checkpoint brings its config.json
     * ({@code MoonshineCheckpoint.readConfig}).
     *
     * @param hidden              model width d (tiny 288, base 416)
     * @param intermediate        encoder MLP width I; the decoder's SwiGLU projects to twice this (value and gate)
     * @param encoderLayers       encoder layers
     * @param decoderLayers       decoder layers
     * @param encoderHeads        encoder attention heads (kv heads equal: Moonshine has no grouping in the encoder)
     * @param decoderHeads        decoder attention heads
     * @param decoderKvHeads      decoder key/value heads
     * @param partialRotaryFactor share of each head that is rotated (tiny 0.9, base 0.62)
     * @param ropeBase            rotary base (10000)
     * @param vocabulary          output rows V (32768)
     */
    public record MoonshineConfig(
            int hidden,
            int intermediate,
            int encoderLayers,
            int decoderLayers,
            int encoderHeads,
            int decoderHeads,
            int decoderKvHeads,
            double partialRotaryFactor,
            float ropeBase,
            int vocabulary) {
        /** LayerNorm epsilon of every norm in the network. */
        public static final float NORM_EPS = 1e-5f;

        public static final int BOS = 1, EOS = 2;
        /** Input rate, and the stem's total stride: one encoder frame per 384 samples (24 ms). */
        public static final int SAMPLE_RATE = 16000;

        public static final MoonshineConfig TINY = new MoonshineConfig(288, 1152, 6, 6, 8, 8, 8, 0.9, 10000f, 32768);
        public static final MoonshineConfig BASE = new MoonshineConfig(416, 1664, 8, 8, 8, 8, 8, 0.62, 10000f, 32768);

        public MoonshineConfig {
            if (hidden < 1
                    || encoderHeads < 1
                    || decoderHeads < 1
                    || decoderKvHeads < 1
                    || hidden % encoderHeads != 0
                    || hidden % decoderHeads != 0
                    || decoderHeads % decoderKvHeads != 0) {
                throw new IllegalArgumentException("Moonshine geometry does not divide: hidden " + hidden + ", heads "
                        + encoderHeads + "/" + decoderHeads + ", decoder kv heads " + decoderKvHeads);
            }
            if (encoderLayers < 1 || decoderLayers < 1 || intermediate < 1 || vocabulary < 3) {
                throw new IllegalArgumentException("Moonshine needs layers, an MLP and a vocabulary; got " + this);
            }
        }

        public int encoderHeadDim() {
            return hidden / encoderHeads;
        }

        public int decoderHeadDim() {
            return hidden / decoderHeads;
        }

        public Rotary encoderRotary() {
            return Rotary.partial(encoderHeadDim(), partialRotaryFactor, ropeBase, true);
        }

        public Rotary decoderRotary() {
            return Rotary.partial(decoderHeadDim(), partialRotaryFactor, ropeBase, true);
        }

        /** Encoder frames for {@code samples} of audio: conv 127/64, then 7/3, then 3/2, no padding; 0 when too short. */
        public static long frames(long samples) {
            long t = samples < 127 ? 0 : (samples - 127) / 64 + 1;
            t = t < 7 ? 0 : (t - 7) / 3 + 1;
            return t < 3 ? 0 : (t - 3) / 2 + 1;
        }

        /** The most samples that give at most {@code frames} encoder frames. */
        public static int maxSamples(int frames) {
            long lo = 0, hi = 64L * 6 * (frames + 2) + 1024; // frames(hi) > frames
            while (lo < hi) {
                long mid = (lo + hi + 1) / 2;
                if (frames(mid) <= frames) lo = mid;
                else hi = mid - 1;
            }
            return Math.toIntExact(lo);
        }

        /** The fewest samples that give one encoder frame (the shortest window the model can hear). */
        public static final int MIN_SAMPLES = 127 + 64 * (7 - 1 + 3 * (3 - 1));
    }

    /**
     * The stem: conv 127/64 → tanh → GroupNorm(1) → conv 7/3 → GELU → conv 3/2 → GELU.
     *
     * @param conv1 weight [d, 1, 127], stride 64, no bias
     * @param norm  GroupNorm of one group, weight and bias [d]
     * @param conv2 weight [2d, d, 7] and bias [2d], stride 3
     * @param conv3 weight [d, 2d, 3] and bias [d], stride 2
     */
    record Stem(Conv1d conv1, GroupNorm norm, Conv1d conv2, Conv1d conv3) {}

    /**
     * The encoder: the stem, then pre-norm layers, each norms [d] (no bias), attention q/k/v/o [d, d] (no bias, partial
     * rotary) and MLP fc1 [I, d] + bias, fc2 [d, I] + bias with exact GELU.
     *
     * @param norm the final LayerNorm [d]
     */
    record Encoder(Stem stem, List<EncoderLayer> layers, LayerNorm norm) {}

    /**
     * One decoder layer's pieces, kept apart because a cached step uses them one by one (the attention's projections
     * separately, so keys and values go into the cache).
     *
     * @param selfNorm  LayerNorm [d] before self-attention
     * @param self      q/o [d, d], k/v [Hkv·hd, d], no bias, partial rotary
     * @param crossNorm LayerNorm [d] before cross-attention
     * @param cross     as self, no rotary; its keys and values come from the encoder states
     * @param ffnNorm   LayerNorm [d] before the MLP
     * @param ffn       SwiGLU: fc1 [2I, d] + bias (value rows, then gate rows), fc2 [d, I] + bias
     */
    record DecoderLayer(
            LayerNorm selfNorm,
            MultiHeadAttention self,
            LayerNorm crossNorm,
            MultiHeadAttention cross,
            LayerNorm ffnNorm,
            FeedForward ffn) {}

    /**
     * The decoder.
     *
     * @param embedding token table [V, d]
     * @param norm      final LayerNorm [d]
     * @param head      output projection [V, d], no bias (tied to the embedding in transformers' checkpoints)
     */
    record Decoder(HostTensor embedding, List<DecoderLayer> layers, LayerNorm norm, Linear head) {}

    /** Audio [1, 1, samples] → encoder states [1, T, hidden]. */
    static Tensor encode(GraphBuilder g, Encoder e, Tensor audio) {
        Tensor h = g.tanh(e.stem().conv1().apply(g, audio));
        h = e.stem().norm().apply(g, h);
        h = g.gelu(e.stem().conv2().apply(g, h));
        h = g.gelu(e.stem().conv3().apply(g, h));
        h = g.contiguous(g.transpose(h, 1, 2));
        for (EncoderLayer layer : e.layers()) h = layer.apply(g, h, null);
        return e.norm().apply(g, h);
    }

    /** Audio [1, 1, samples] → outputs: encoder states [1, T, D]; side effects: the cross caches' first T rows. */
    static Graph encoder(MoonshineConfig c, Encoder encoder, Decoder decoder, int samples, int crossCapacity) {
        long frames = MoonshineConfig.frames(samples);
        if (frames < 1 || frames > crossCapacity) {
            throw new IllegalArgumentException(
                    samples + " samples give " + frames + " encoder frames; this session holds 1 to " + crossCapacity);
        }
        GraphBuilder g = new GraphBuilder();
        Tensor memory =
                encode(g, encoder, g.input(AUDIO, Shape.of(1, 1, samples))).named("encoder_states");
        Tensor zero = g.input(ZERO, DType.I32, Shape.of(1));
        for (int l = 0; l < c.decoderLayers(); l++) {
            MultiHeadAttention cross = decoder.layers().get(l).cross();
            Shape cache = cacheShape(c, crossCapacity);
            g.writeSlice(g.state(cacheName("cross_k", l), cache), g.contiguous(cross.keys(g, memory, null)), 2, zero);
            g.writeSlice(g.state(cacheName("cross_v", l), cache), g.contiguous(cross.values(g, memory)), 2, zero);
        }
        return g.build(memory);
    }

    /**
     * One decoder step: outputs the next token (I32 [1, 1], greedy) and, when {@code withLogits}, the logits
     * [1, 1, V] (teacher forcing and tests).
     */
    static Graph step(MoonshineConfig c, Decoder d, int selfCapacity, int crossCapacity, boolean withLogits) {
        GraphBuilder g = new GraphBuilder();
        Tensor token = g.input(TOKEN, DType.I32, Shape.of(1, 1));
        Tensor position = g.input(POSITION, DType.I32, Shape.of(1));
        Tensor selfMask = g.keyMask(g.input(SELF_LENGTH, DType.I32, Shape.of(1)), 1, selfCapacity, false);
        Tensor crossMask = g.keyMask(g.input(CROSS_LENGTH, DType.I32, Shape.of(1)), 1, crossCapacity, false);
        Tensor h = g.getRows(g.constant(d.embedding()), token); // [1, 1, D]
        for (int l = 0; l < c.decoderLayers(); l++) {
            DecoderLayer layer = d.layers().get(l);
            MultiHeadAttention self = layer.self();
            Tensor x = layer.selfNorm().apply(g, h);
            Shape selfShape = cacheShape(c, selfCapacity);
            Tensor keys = g.writeSlice(
                    g.state(cacheName("self_k", l), selfShape), g.contiguous(self.keys(g, x, position)), 2, position);
            Tensor values = g.writeSlice(
                    g.state(cacheName("self_v", l), selfShape), g.contiguous(self.values(g, x)), 2, position);
            h = g.add(h, self.output(g, self.attend(g, self.queries(g, x, position), keys, values, selfMask)));

            MultiHeadAttention cross = layer.cross();
            Shape crossShape = cacheShape(c, crossCapacity);
            Tensor ck = g.state(cacheName("cross_k", l), crossShape), cv = g.state(cacheName("cross_v", l), crossShape);
            h = g.add(
                    h,
                    cross.output(
                            g,
                            cross.attend(g, cross.queries(g, layer.crossNorm().apply(g, h), null), ck, cv, crossMask)));
            h = g.add(h, layer.ffn().apply(g, layer.ffnNorm().apply(g, h)));
        }
        Tensor logits = d.head().apply(g, d.norm().apply(g, h)).named("logits");
        Tensor next = g.argmax(logits, -1).named("next");
        return withLogits ? g.build(next, logits) : g.build(next);
    }
}
