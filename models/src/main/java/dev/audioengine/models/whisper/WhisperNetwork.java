package dev.audioengine.models.whisper;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.CacheSlots;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.EncoderLayer;
import dev.audioengine.blocks.FeedForward;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.LogMel;
import dev.audioengine.blocks.MultiHeadAttention;
import java.util.List;

/**
 * The Whisper network (OpenAI's whisper/model.py; transformers' WhisperForConditionalGeneration; whisper.cpp's
 * whisper_build_graph_encoder/decoder) on the engine's ops, in forward order. d = n_audio_state = n_text_state,
 * H = heads, hd = d / H, V = vocabulary, 1500 encoder positions for Whisper's fixed 30 s window.
 * <pre>
 * audio [1, 480000] (the window, zero-padded to 30 s) → log-mel [1, mels, 3000] (Hann 400, hop 160, the file's mel
 *   filterbank, log10, max − 8 floor, (x + 4) / 4) → conv k3 p1 [d] → GELU → conv k3 s2 p1 [d] → GELU
 *   → transpose [1, 1500, d] + sinusoidal positions [1500, d] (stored in the file)
 *   → encoderLayers × (x + self-attn(LN x), + MLP(LN ·): fc1 [4d] GELU fc2) → LN → encoder states [1, 1500, d]
 *   → per decoder layer: cross keys and values [1, H, 1500, hd], written once per window into the cross caches
 *
 * token [1, 1] at position p → embedding row + learned position row p → decoderLayers × (
 *     x + causal self-attn(LN x) over the self cache (this step's keys and values written at p, length p + 1),
 *     + cross-attn(LN ·) over the cross caches, + MLP(LN ·): fc1 [4d] GELU fc2 )
 *   → LN → logits [1, 1, V] = · embeddingᵀ (the output projection is the token table, tied)
 * </pre>
 * Attention projections: query, value and output with bias, key without (as Whisper's). Every LayerNorm has weight and
 * bias, eps 1e-5; GELU is the exact (erf) one. Beside this file, {@code WhisperWeights} reads these records from either
 * layout, {@code WhisperSession} holds the caches and runs the graphs, {@code WhisperDecoding} picks the tokens.
 */
public final class WhisperNetwork {
    /** Input names of the step graph (token I32 [1, 1], position I32 [1], self length I32 [1]). */
    static final String TOKEN = "token", POSITION = "position", SELF_LENGTH = "self_length";

    /** Input name of the encoder graph: the window's samples, zero-padded to 30 s, [1, 480000]. */
    static final String AUDIO = "audio";

    /**
     * Input names of a batch's graphs ({@link #step(WhisperConfig, Decoder, int, int, int, WhisperAlignment.Heads)}
     * over several slots, {@link #slotEncoder}): where each slot's keys and values go (I32 [slots], negative: that
     * slot is not written), how many cross positions each slot sees (I32 [slots]: 1500, or 0 for a slot not stepped),
     * and the slot a window is encoded into (I32 [1]).
     */
    static final String WRITE_AT = "write_at", CROSS_LENGTH = "cross_length", SLOT = "slot";

    /** Whisper hears 30 s windows at 16 kHz, in 3000 mel frames and 1500 encoder positions. */
    public static final int SAMPLE_RATE = 16000, WINDOW_SAMPLES = 30 * SAMPLE_RATE, MEL_FRAMES = 3000;

    private WhisperNetwork() {}

    /**
     * Whisper's geometry (whisper.cpp's hparams; transformers' WhisperConfig).
     *
     * @param vocabulary  V: 51864 English-only, 51865 multilingual, 51866 large-v3
     * @param audioCtx    encoder positions (1500)
     * @param audioState  encoder width
     * @param audioHeads  encoder heads
     * @param audioLayers encoder layers
     * @param textCtx     decoder positions (448)
     * @param textState   decoder width (equal to the encoder's in every released model)
     * @param textHeads   decoder heads
     * @param textLayers  decoder layers
     * @param mels        mel bins (80; 128 for large-v3)
     */
    public record WhisperConfig(
            int vocabulary,
            int audioCtx,
            int audioState,
            int audioHeads,
            int audioLayers,
            int textCtx,
            int textState,
            int textHeads,
            int textLayers,
            int mels) {
        public static final float NORM_EPS = 1e-5f;

        public WhisperConfig {
            if (audioState != textState)
                throw new IllegalArgumentException(
                        "encoder width " + audioState + " and decoder width " + textState + " differ");
            if (audioHeads < 1 || textHeads < 1 || audioState % audioHeads != 0 || textState % textHeads != 0)
                throw new IllegalArgumentException(
                        "heads " + audioHeads + "/" + textHeads + " do not divide the width " + audioState);
            if (audioCtx * 2 != MEL_FRAMES)
                throw new IllegalArgumentException("n_audio_ctx is " + audioCtx
                        + "; the engine runs Whisper's 30 s window of 1500 encoder positions");
            if (audioLayers < 1 || textLayers < 1 || textCtx < 8 || mels < 1 || vocabulary < 51864)
                throw new IllegalArgumentException("not a Whisper geometry: " + this);
        }

        public int headDim() {
            return textState / textHeads;
        }
    }

    /**
     * Conv stem: conv1 [d, mels, 3] + bias, stride 1; conv2 [d, d, 3] + bias, stride 2; both padding 1. {@code zero}
     * is I32 [1] holding 0: where along time the cross caches are written.
     */
    record Encoder(
            HostTensor zero,
            LogMel logMel,
            Conv1d conv1,
            Conv1d conv2,
            HostTensor positions,
            List<EncoderLayer> layers,
            LayerNorm norm,
            List<MultiHeadAttention> cross) {}

    /**
     * One decoder layer's pieces, apart because a cached step uses them one by one.
     *
     * @param self  q/v/o [d, d] + bias, k [d, d] no bias
     * @param cross as self; its keys and values come from the encoder states (computed by the encoder graph)
     */
    record DecoderLayer(
            LayerNorm selfNorm,
            MultiHeadAttention self,
            LayerNorm crossNorm,
            MultiHeadAttention cross,
            LayerNorm ffnNorm,
            FeedForward ffn) {}

    /**
     * @param embedding token table [V, d] for the row lookup: F16 when the file stores it so, else F32
     * @param positions learned positions [textCtx, d]
     * @param head      the same table as the output projection [V, d], the same tensor (WhisperWeights)
     */
    record Decoder(
            HostTensor embedding, HostTensor positions, List<DecoderLayer> layers, LayerNorm norm, Linear head) {}

    /** The persistent tensor of one cache ({@code self_k}, {@code self_v}, {@code cross_k}, {@code cross_v}) of one layer. */
    static String cacheName(String kind, int layer) {
        return "whisper." + kind + "." + layer;
    }

    /** A cache's shape, [1, H, capacity, hd]. */
    static Shape cacheShape(WhisperConfig c, int capacity) {
        return cacheShape(c, 1, capacity);
    }

    /** A batch's cache shape, [slots, H, capacity, hd]: one sequence per slot. */
    static Shape cacheShape(WhisperConfig c, int slots, int capacity) {
        return Shape.of(slots, c.textHeads(), capacity, c.headDim());
    }

    /** Audio [1, 480000] → encoder states [1, 1500, d]. */
    static Tensor encode(GraphBuilder g, Encoder e, Tensor audio) {
        Tensor mel = e.logMel().apply(g, audio); // [1, mels, 3000]
        Tensor h = g.gelu(e.conv1().apply(g, mel));
        h = g.gelu(e.conv2().apply(g, h)); // [1, d, 1500]
        h = g.add(g.contiguous(g.transpose(h, 1, 2)), g.constant(e.positions()));
        for (EncoderLayer layer : e.layers()) h = layer.apply(g, h, null);
        return e.norm().apply(g, h);
    }

    /**
     * The encoder graph: audio [1, 480000] → outputs the encoder states [1, 1500, d]; side effect: the cross caches
     * hold this window's keys and values (whole, so no slot or length is needed).
     */
    static Graph encoder(WhisperConfig c, Encoder e) {
        GraphBuilder g = new GraphBuilder();
        Tensor memory =
                encode(g, e, g.input(AUDIO, Shape.of(1, WINDOW_SAMPLES))).named("encoder_states");
        Tensor zero = g.constant(e.zero());
        Shape cache = cacheShape(c, c.audioCtx());
        for (int l = 0; l < c.textLayers(); l++) {
            MultiHeadAttention cross = e.cross().get(l);
            g.writeSlice(g.state(cacheName("cross_k", l), cache), g.contiguous(cross.keys(g, memory, null)), 2, zero);
            g.writeSlice(g.state(cacheName("cross_v", l), cache), g.contiguous(cross.values(g, memory)), 2, zero);
        }
        return g.build(memory);
    }

    /**
     * A batch's encoder graph: audio [1, 480000] and a slot (I32 [1]) → the window's cross keys and values written
     * into that slot of the batch's cross caches [slots, H, 1500, hd]. It outputs its slot input back: the encoder
     * states stay on the device (a batch needs only the caches; fetching them would copy 1500 × d floats a window).
     */
    static Graph slotEncoder(WhisperConfig c, Encoder e, int slots) {
        GraphBuilder g = new GraphBuilder();
        Tensor memory = encode(g, e, g.input(AUDIO, Shape.of(1, WINDOW_SAMPLES)));
        Tensor slot = g.input(SLOT, DType.I32, Shape.of(1));
        Shape cache = cacheShape(c, slots, c.audioCtx());
        for (int l = 0; l < c.textLayers(); l++) {
            MultiHeadAttention cross = e.cross().get(l);
            g.writeSlice(g.state(cacheName("cross_k", l), cache), g.contiguous(cross.keys(g, memory, null)), 0, slot);
            g.writeSlice(g.state(cacheName("cross_v", l), cache), g.contiguous(cross.values(g, memory)), 0, slot);
        }
        return g.build(slot);
    }

    /**
     * One decoder step over one token: outputs the logits [1, 1, V]. The self caches (capacity {@code selfCapacity})
     * take this step's keys and values at {@code position}; the mask shows the first {@code self_length} of them.
     */
    static Graph step(WhisperConfig c, Decoder d, int selfCapacity) {
        return step(c, d, 1, 1, selfCapacity, null);
    }

    /**
     * As {@link #step(WhisperConfig, Decoder, int)}, also outputting the cross-attention weights of the alignment
     * heads (word timestamps): softmax(q·kᵀ / √hd) of each listed head over the 1500 encoder positions, [heads, 1500]
     * in the heads' order. A graph of its own, compiled only when word timestamps are asked for: the plain step
     * (fused attention) pays nothing for it.
     */
    static Graph step(WhisperConfig c, Decoder d, int selfCapacity, WhisperAlignment.Heads alignment) {
        return step(c, d, 1, 1, selfCapacity, alignment);
    }

    /**
     * One decoder step of {@code width} sequences, each in its own slot among the first {@code width} of the caches'
     * {@code slots} (a batch, {@code WhisperBatch}): tokens I32 [width, 1] at their own positions I32 [width] →
     * logits [width, 1, V]. With one slot this is the plain cached step above. With several, each slot has its own
     * self length and cross length (I32 [slots]) and its own write position ({@link #WRITE_AT}, I32 [slots]): a slot
     * whose sequence sits this step out (or lies past the width) is written nowhere (−1) and sees nothing (lengths 0),
     * so its cache stays as it was and its row of logits is ignored. The small new keys, values and queries are padded
     * to all slots rather than the caches sliced to the width, as Moonshine's batched step does (CacheSlots
     * says why): the caches stay whole and no step copies them.
     */
    static Graph step(
            WhisperConfig c, Decoder d, int slots, int width, int selfCapacity, WhisperAlignment.Heads alignment) {
        if (width < 1 || width > slots || (slots > 1 && alignment != null))
            throw new IllegalArgumentException("a step over " + width + " sequences of " + slots + " slots"
                    + (alignment != null ? " with alignment heads (one sequence only)" : ""));
        boolean batch = slots > 1;
        GraphBuilder g = new GraphBuilder();
        Tensor[] alignmentWeights = alignment == null ? null : new Tensor[alignment.count()];
        Tensor token = g.input(TOKEN, DType.I32, Shape.of(width, 1));
        Tensor position = g.input(POSITION, DType.I32, Shape.of(width));
        Tensor writeAt = batch ? g.input(WRITE_AT, DType.I32, Shape.of(slots)) : position;
        Tensor selfMask = g.keyMask(g.input(SELF_LENGTH, DType.I32, Shape.of(slots)), 1, selfCapacity, false);
        Tensor crossMask =
                batch ? g.keyMask(g.input(CROSS_LENGTH, DType.I32, Shape.of(slots)), 1, c.audioCtx(), false) : null;
        Tensor h = g.add(
                g.getRows(g.constant(d.embedding()), token), // [W, 1, d]
                g.reshape(g.getRows(g.constant(d.positions()), position), width, 1, c.textState()));
        Shape selfShape = cacheShape(c, slots, selfCapacity), crossShape = cacheShape(c, slots, c.audioCtx());
        for (int l = 0; l < c.textLayers(); l++) {
            DecoderLayer layer = d.layers().get(l);
            MultiHeadAttention self = layer.self();
            Tensor x = layer.selfNorm().apply(g, h);
            // one product for q, k and v; write_slice reads the head views as they are (one token: no copy needed)
            MultiHeadAttention.Projections p = self.project(g, x, null);
            Tensor keys = g.writeSlice(
                    g.state(cacheName("self_k", l), selfShape), CacheSlots.toSlots(g, p.keys(), slots), 2, writeAt);
            Tensor values = g.writeSlice(
                    g.state(cacheName("self_v", l), selfShape), CacheSlots.toSlots(g, p.values(), slots), 2, writeAt);
            Tensor attended = self.attend(g, CacheSlots.toSlots(g, p.queries(), slots), keys, values, selfMask);
            h = g.add(h, self.output(g, CacheSlots.firstSlots(g, attended, width)));

            MultiHeadAttention cross = layer.cross();
            Tensor ck = g.state(cacheName("cross_k", l), crossShape), cv = g.state(cacheName("cross_v", l), crossShape);
            Tensor q = cross.queries(g, layer.crossNorm().apply(g, h), null);
            if (alignment != null) alignmentWeights(g, alignment, l, q, ck, c.headDim(), alignmentWeights);
            Tensor crossed = batch
                    ? cross.attend(g, CacheSlots.toSlots(g, q, slots), ck, cv, crossMask)
                    : cross.attend(g, q, ck, cv, false);
            h = g.add(h, cross.output(g, CacheSlots.firstSlots(g, crossed, width)));
            h = g.add(h, layer.ffn().apply(g, layer.ffnNorm().apply(g, h)));
        }
        Tensor logits = d.head().apply(g, d.norm().apply(g, h)).named("logits");
        if (alignment == null) return g.build(logits);
        Tensor weights = g.reshape(g.concat(1, alignmentWeights), alignment.count(), c.audioCtx());
        return g.build(logits, weights.named("alignment"));
    }

    /** Layer {@code l}'s alignment heads: q [1, H, 1, hd] against the cross keys [1, H, 1500, hd] → [1, 1, 1, 1500]. */
    private static void alignmentWeights(
            GraphBuilder g, WhisperAlignment.Heads heads, int l, Tensor q, Tensor keys, int headDim, Tensor[] out) {
        for (int i = 0; i < heads.count(); i++) {
            if (heads.layers()[i] != l) continue;
            int h = heads.heads()[i];
            Tensor qh = g.contiguous(g.slice(q, 1, h, h + 1)), kh = g.contiguous(g.slice(keys, 1, h, h + 1));
            out[i] = g.softmax(g.matmul(qh, kh), null, (float) (1 / Math.sqrt(headDim)));
        }
    }
}
