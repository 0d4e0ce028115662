package dev.audioengine.models.moonshine;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.CacheSlots;
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
 *   → LN → encoder states [1,T,d] → per decoder layer: cross keys/values [1,Hkv,T,hd] written into a cross cache slot
 *
 * tokens [W,1] of W sequences → embedding rows [W,1,d] → decoderLayers × (
 *     x + self-attn(LN x) over the self cache (each sequence's keys/values written at its own `position` in its own
 *         slot, rotary by that position, its own length mask),
 *     + cross-attn(LN ·) over its slot of the cross cache (its own length mask),
 *     + SwiGLU(LN ·): fc1 → [value | gate], silu(gate)·value → fc2 )
 *   → LN → head [W,1,V] → argmax → next tokens
 * </pre>
 * The encoder graph is built once per window length; one compiled step graph serves every position of every window
 * (fixed cache capacities, length masks: docs/STATE.md). Beside this file, {@code MoonshineWeights} reads the records
 * here from a file, {@code DecoderCache} holds the caches under the names and shapes below, {@code DecodingSession} runs
 * the graphs for one sequence and {@code BatchDecoder} for many at once (sequences joining and leaving between steps).
 */
public final class MoonshineNetwork {
    /**
     * Input names of the step graph: token I32 [W, 1] and position I32 [W], one per sequence of
     * the step, lengths I32 [slots] (0 past the width); write_at I32 [slots] when the step spans fewer than all slots.
     */
    static final String TOKEN = "token",
            POSITION = "position",
            SELF_LENGTH = "self_length",
            CROSS_LENGTH = "cross_length",
            WRITE_AT = "write_at";

    /** Input names of the encoder graph: the window's samples, the cache slot (I32 [1]) its keys and values go to. */
    static final String AUDIO = "audio", SLOT = "slot";

    /**
     * Input names of the batched encoder graph: each window's conv-1 frames and encoder frames (I32 [W]); its cache
     * slot is input {@code SLOT + w} (I32 [1]) for window w.
     */
    static final String STEM_LENGTH = "stem_length", FRAME_LENGTH = "frame_length";

    private MoonshineNetwork() {}

    /** The persistent tensor of one cache ({@code self_k}, {@code self_v}, {@code cross_k}, {@code cross_v}) of one decoder layer. */
    static String cacheName(String kind, int layer) {
        return "moonshine." + kind + "." + layer;
    }

    /** A cache's shape, [slots, Hkv, capacity, hd]: keys or values of {@code capacity} positions per sequence slot. */
    static Shape cacheShape(MoonshineConfig c, int slots, int capacity) {
        return Shape.of(slots, c.decoderKvHeads(), capacity, c.decoderHeadDim());
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

    /**
     * Audio [1, 1, samples] → outputs: encoder states [1, T, D]; side effects: slot {@code slot} (I32 [1]) of the cross
     * caches holds this window's keys and values. With one slot they are written as the cache's first T rows (the rest
     * is masked). With several, they are padded to the capacity and written as the slot's whole [1, Hkv, capacity, hd]
     * block (write_slice starts along one axis only; the padding is masked too). This is the encoder of a window decoded
     * alone (compiled per length: its GroupNorm is the op's own); a batch encodes the windows that join it together
     * with {@link #batchEncoder}.
     */
    static Graph encoder(
            MoonshineConfig c, Encoder encoder, Decoder decoder, int samples, int slots, int crossCapacity) {
        long frames = MoonshineConfig.frames(samples);
        if (frames < 1 || frames > crossCapacity) {
            throw new IllegalArgumentException(
                    samples + " samples give " + frames + " encoder frames; this session holds 1 to " + crossCapacity);
        }
        GraphBuilder g = new GraphBuilder();
        Tensor memory =
                encode(g, encoder, g.input(AUDIO, Shape.of(1, 1, samples))).named("encoder_states");
        Tensor slot = g.input(SLOT, DType.I32, Shape.of(1));
        Shape cache = cacheShape(c, slots, crossCapacity);
        for (int l = 0; l < c.decoderLayers(); l++) {
            MultiHeadAttention cross = decoder.layers().get(l).cross();
            Tensor k = g.contiguous(cross.keys(g, memory, null)), v = g.contiguous(cross.values(g, memory));
            if (slots == 1) {
                g.writeSlice(g.state(cacheName("cross_k", l), cache), k, 2, slot);
                g.writeSlice(g.state(cacheName("cross_v", l), cache), v, 2, slot);
            } else {
                long[] none = new long[4], tail = {0, 0, crossCapacity - frames, 0};
                g.writeSlice(g.state(cacheName("cross_k", l), cache), g.pad(k, PadMode.ZERO, none, tail, 0f), 0, slot);
                g.writeSlice(g.state(cacheName("cross_v", l), cache), g.pad(v, PadMode.ZERO, none, tail, 0f), 0, slot);
            }
        }
        return g.build(memory);
    }

    /** Conv-1 frames of the stem over {@code samples} (its other convolutions and the frames follow from them). */
    static long stemFrames(long samples) {
        return samples < 127 ? 0 : (samples - 127) / 64 + 1;
    }

    /**
     * {@code windows} windows padded to {@code samples} each, audio [W, 1, samples], encoded in one run, each into its
     * own slot of the cross caches (as {@link #encoder} does for one). Each window normalizes and attends over its own
     * frames only: the stem's GroupNorm takes its statistics over the window's conv-1 frames (STEM_LENGTH) and the
     * encoder's attention sees the window's frames (FRAME_LENGTH); the convolutions have no padding, so a window's
     * frames never read past its samples. A window's keys and values are then what it gets encoded alone, up to the
     * rounding of the composed GroupNorm and of wider products, and the frames past its length are masked in the
     * decoder by its cross length. Windows past the real ones (a batch rounded up to a compiled size) give the first
     * window's slot: their writes come first and the first window's last, so they leave nothing behind.
     * <p>
     * With {@code statesOut} the run returns the encoder states [W, T, D]; without, it returns FRAME_LENGTH (its own
     * input, read on the host) and the states stay on the device: a batch only needs the caches, and fetching the
     * states cost a device-to-host copy of W x T x D floats (7.7 MB for 16 windows of 10 s) on every run.
     */
    static Graph batchEncoder(
            MoonshineConfig c,
            Encoder e,
            Decoder decoder,
            int windows,
            int samples,
            int slots,
            int crossCapacity,
            boolean statesOut) {
        long frames = MoonshineConfig.frames(samples);
        if (windows < 1 || frames < 1 || frames > crossCapacity) {
            throw new IllegalArgumentException(windows + " windows of " + samples + " samples give " + frames
                    + " encoder frames; this batch holds 1 to " + crossCapacity);
        }
        GraphBuilder g = new GraphBuilder();
        Tensor audio = g.input(AUDIO, Shape.of(windows, 1, samples));
        Tensor stemLength = g.input(STEM_LENGTH, DType.I32, Shape.of(windows));
        Tensor frameLength = g.input(FRAME_LENGTH, DType.I32, Shape.of(windows));
        Tensor h = g.tanh(e.stem().conv1().apply(g, audio)); // [W, C, T1]
        long t1 = h.dim(2);
        Tensor stemMask = g.reshape(g.exp(g.keyMask(stemLength, 1, t1, false)), windows, 1, t1);
        h = e.stem().norm().apply(g, h, stemMask);
        h = g.gelu(e.stem().conv2().apply(g, h));
        h = g.gelu(e.stem().conv3().apply(g, h));
        h = g.contiguous(g.transpose(h, 1, 2)); // [W, T, D]
        Tensor mask = g.keyMask(frameLength, frames, frames, false);
        for (EncoderLayer layer : e.layers()) h = layer.apply(g, h, null, mask);
        Tensor memory = e.norm().apply(g, h).named("encoder_states");
        Shape cache = cacheShape(c, slots, crossCapacity);
        long[] none = new long[4], tail = {0, 0, crossCapacity - frames, 0};
        Tensor[] slot = new Tensor[windows];
        for (int w = 0; w < windows; w++) slot[w] = g.input(SLOT + w, DType.I32, Shape.of(1));
        for (int l = 0; l < c.decoderLayers(); l++) {
            MultiHeadAttention cross = decoder.layers().get(l).cross();
            Tensor k = g.pad(g.contiguous(cross.keys(g, memory, null)), PadMode.ZERO, none, tail, 0f);
            Tensor v = g.pad(g.contiguous(cross.values(g, memory)), PadMode.ZERO, none, tail, 0f);
            Tensor ck = g.state(cacheName("cross_k", l), cache), cv = g.state(cacheName("cross_v", l), cache);
            for (int w = windows - 1; w >= 0; w--) {
                ck = g.writeSlice(ck, g.contiguous(g.slice(k, 0, w, w + 1)), 0, slot[w]);
                cv = g.writeSlice(cv, g.contiguous(g.slice(v, 0, w, w + 1)), 0, slot[w]);
            }
        }
        return g.build(statesOut ? memory : frameLength);
    }

    /**
     * One decoder step of {@code width} sequences, those in the first {@code width} of the caches' {@code slots} slots:
     * outputs the next tokens (I32 [width, 1], greedy) and, when {@code withLogits}, the logits [width, 1, V] (teacher
     * forcing and tests). Each sequence has its own position, self length and cross length (I32 [width]), so sequences
     * at different points of different windows share the step, and its own slot of every cache.
     * <p>
     * With width &lt; slots (a batch that uses only its first slots) the new keys and values are padded to all slots
     * and written with per-slot starts {@code write_at} (I32 [slots], -1 for the slots past the width: nothing written),
     * and the queries are padded to all slots too: attention runs over the whole caches, the slots past the width with
     * length 0 (the lengths are I32 [slots]; nothing visible, skipped), and the first width rows of its output go on.
     * Padding the small queries rather than slicing the caches keeps the caches whole: a backend that copies a slice
     * of a cache into a tensor of its own would copy every cross cache on every step (measured on the CPU: +20 % per
     * lone request). A step over one sequence in one slot is the plain cached step.
     */
    static Graph step(
            MoonshineConfig c,
            Decoder d,
            int slots,
            int width,
            int selfCapacity,
            int crossCapacity,
            boolean withLogits) {
        if (width < 1 || width > slots)
            throw new IllegalArgumentException("a step over " + width + " sequences of " + slots + " slots");
        GraphBuilder g = new GraphBuilder();
        Tensor token = g.input(TOKEN, DType.I32, Shape.of(width, 1));
        Tensor position = g.input(POSITION, DType.I32, Shape.of(width));
        Tensor writeAt = width == slots ? position : g.input(WRITE_AT, DType.I32, Shape.of(slots));
        Tensor selfMask = g.keyMask(g.input(SELF_LENGTH, DType.I32, Shape.of(slots)), 1, selfCapacity, false);
        Tensor crossMask = g.keyMask(g.input(CROSS_LENGTH, DType.I32, Shape.of(slots)), 1, crossCapacity, false);
        Tensor h = g.getRows(g.constant(d.embedding()), token); // [W, 1, D]
        Shape selfShape = cacheShape(c, slots, selfCapacity), crossShape = cacheShape(c, slots, crossCapacity);
        for (int l = 0; l < c.decoderLayers(); l++) {
            DecoderLayer layer = d.layers().get(l);
            MultiHeadAttention self = layer.self();
            Tensor x = layer.selfNorm().apply(g, h);
            MultiHeadAttention.Projections p =
                    width == 1 ? self.project(g, x, position) : perSequence(g, self, x, position);
            Tensor keys = g.writeSlice(
                    g.state(cacheName("self_k", l), selfShape), CacheSlots.toSlots(g, p.keys(), slots), 2, writeAt);
            Tensor values = g.writeSlice(
                    g.state(cacheName("self_v", l), selfShape), CacheSlots.toSlots(g, p.values(), slots), 2, writeAt);
            Tensor attended = self.attend(g, CacheSlots.toSlots(g, p.queries(), slots), keys, values, selfMask);
            h = g.add(h, self.output(g, CacheSlots.firstSlots(g, attended, width)));

            MultiHeadAttention cross = layer.cross();
            Tensor ck = g.state(cacheName("cross_k", l), crossShape), cv = g.state(cacheName("cross_v", l), crossShape);
            Tensor crossQueries =
                    CacheSlots.toSlots(g, cross.queries(g, layer.crossNorm().apply(g, h), null), slots);
            h = g.add(
                    h,
                    cross.output(g, CacheSlots.firstSlots(g, cross.attend(g, crossQueries, ck, cv, crossMask), width)));
            h = g.add(h, layer.ffn().apply(g, layer.ffnNorm().apply(g, h)));
        }
        Tensor logits = d.head().apply(g, d.norm().apply(g, h)).named("logits");
        Tensor next = g.argmax(logits, -1).named("next");
        return withLogits ? g.build(next, logits) : g.build(next);
    }

    /**
     * Queries [W, H, 1, hd], keys and values [W, Hkv, 1, hd] of one new token per sequence, each rotated by its own
     * sequence's position. rope takes one position per time step, so the W tokens are laid along time ([1, W, D] →
     * [1, n, W, hd]), projected and rotated, and turned back into W sequences of one step.
     */
    private static MultiHeadAttention.Projections perSequence(
            GraphBuilder g, MultiHeadAttention self, Tensor x, Tensor positions) {
        MultiHeadAttention.Projections alongTime = self.project(g, g.reshape(x, 1, x.dim(0), x.dim(2)), positions);
        return new MultiHeadAttention.Projections(
                g.permute(alongTime.queries(), 2, 1, 0, 3),
                g.permute(alongTime.keys(), 2, 1, 0, 3),
                g.permute(alongTime.values(), 2, 1, 0, 3));
    }
}
