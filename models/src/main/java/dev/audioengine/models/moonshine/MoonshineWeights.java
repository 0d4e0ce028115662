package dev.audioengine.models.moonshine;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.EncoderLayer;
import dev.audioengine.blocks.FeedForward;
import dev.audioengine.blocks.GroupNorm;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.MultiHeadAttention;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import dev.audioengine.models.moonshine.MoonshineNetwork.DecoderLayer;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import dev.audioengine.models.moonshine.MoonshineNetwork.Stem;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The Moonshine network's weights ({@link MoonshineNetwork}'s records), read once from one store (a checkpoint) or two (the ONNX export's encoder
 * and decoder files), each shape checked against the config so a file of another geometry fails here, by name, rather
 * than deep inside a graph. The stores own the tensors: close the graphs, then this.
 */
public final class MoonshineWeights implements AutoCloseable {
    private final MoonshineConfig config;
    private final List<WeightStore> stores;
    final MoonshineNetwork.Encoder encoder;
    final MoonshineNetwork.Decoder decoder;

    private MoonshineWeights(
            MoonshineConfig config,
            List<WeightStore> stores,
            MoonshineNetwork.Encoder encoder,
            MoonshineNetwork.Decoder decoder) {
        this.config = config;
        this.stores = stores;
        this.encoder = encoder;
        this.decoder = decoder;
    }

    /**
     * Reads every weight. {@code encoderStore} and {@code decoderStore} may be the same store; this object closes
     * them. {@code effective} picks the attention lowering.
     */
    public static MoonshineWeights read(
            MoonshineConfig config,
            MoonshineLayout layout,
            WeightStore encoderStore,
            WeightStore decoderStore,
            Set<Capability> effective) {
        List<WeightStore> stores =
                encoderStore == decoderStore ? List.of(encoderStore) : List.of(encoderStore, decoderStore);
        try {
            return read(config, layout, encoderStore.scope(), decoderStore.scope(), effective, stores);
        } catch (RuntimeException e) {
            stores.forEach(WeightStore::close);
            throw e;
        }
    }

    private static MoonshineWeights read(
            MoonshineConfig c,
            MoonshineLayout layout,
            WeightScope encRoot,
            WeightScope decRoot,
            Set<Capability> effective,
            List<WeightStore> stores) {
        WeightScope enc = scoped(encRoot, layout.encoderPrefix());
        WeightScope dec = scoped(decRoot, layout.decoderPrefix());
        int d = c.hidden();
        Stem stem = new Stem(
                check(Conv1d.load(enc.child("conv1"), 64, 0, 1, 1), d, "conv1"),
                GroupNorm.load(enc.child("groupnorm"), 1, MoonshineConfig.NORM_EPS),
                check(Conv1d.load(enc.child("conv2"), 3, 0, 1, 1), 2L * d, "conv2"),
                check(Conv1d.load(enc.child("conv3"), 2, 0, 1, 1), d, "conv3"));
        List<EncoderLayer> encoderLayers = new ArrayList<>();
        for (int l = 0; l < c.encoderLayers(); l++) {
            WeightScope s = enc.child("layers", l);
            MultiHeadAttention attn = attention(
                    s.child("self_attn"), layout, c.encoderHeads(), c.encoderHeads(), c.encoderRotary(), effective, d);
            Linear fc1 = Linear.load(s.child("mlp.fc1")), fc2 = Linear.load(s.child("mlp.fc2"));
            requireShape(s.full("mlp.fc1"), fc1, c.intermediate(), d);
            requireShape(s.full("mlp.fc2"), fc2, d, c.intermediate());
            encoderLayers.add(new EncoderLayer(
                    norm(s, "input_layernorm", d),
                    attn,
                    norm(s, "post_attention_layernorm", d),
                    FeedForward.plain(fc1, fc2, FeedForward.Activation.GELU)));
        }
        if (enc.has("layers." + c.encoderLayers() + ".input_layernorm.weight")) {
            throw new IllegalArgumentException(
                    "the encoder in " + enc + " has more than the " + c.encoderLayers() + " layers its config names");
        }
        HostTensor embedding = dec.tensor("embed_tokens.weight");
        if (embedding.shape().rank() != 2
                || embedding.shape().dim(0) != c.vocabulary()
                || embedding.shape().dim(1) != d) {
            throw new IllegalArgumentException(dec.full("embed_tokens.weight") + " is " + embedding.shape() + ", want ["
                    + c.vocabulary() + ", " + d + "]");
        }
        List<DecoderLayer> decoderLayers = new ArrayList<>();
        for (int l = 0; l < c.decoderLayers(); l++) {
            WeightScope s = dec.child("layers", l);
            Linear up = Linear.load(s.child("mlp." + layout.decoderMlpUp())),
                    down = Linear.load(s.child("mlp." + layout.decoderMlpDown()));
            requireShape(s.full("mlp." + layout.decoderMlpUp()), up, 2L * c.intermediate(), d);
            requireShape(s.full("mlp." + layout.decoderMlpDown()), down, d, c.intermediate());
            decoderLayers.add(new DecoderLayer(
                    norm(s, "input_layernorm", d),
                    attention(
                                    s.child("self_attn"),
                                    layout,
                                    c.decoderHeads(),
                                    c.decoderKvHeads(),
                                    c.decoderRotary(),
                                    effective,
                                    d)
                            // one product for q, k and v: a decoder step is a chain of small products, each paid
                            // per launch on a GPU (the encoder's are few and wide, and a stacked copy costs memory)
                            .withStackedProjections(s.full("self_attn") + " q,k,v"),
                    norm(s, "post_attention_layernorm", d),
                    attention(
                            s.child("encoder_attn"), layout, c.decoderHeads(), c.decoderKvHeads(), null, effective, d),
                    norm(s, "final_layernorm", d),
                    FeedForward.gatedHalves(up, down, FeedForward.Activation.SILU)));
        }
        if (dec.has("layers." + c.decoderLayers() + ".input_layernorm.weight")) {
            throw new IllegalArgumentException(
                    "the decoder in " + dec + " has more than the " + c.decoderLayers() + " layers its config names");
        }
        // the head: its own tensor where the file has one (the ONNX export reads the tied table through proj_out),
        // else the embedding itself (transformers' tie_word_embeddings drops proj_out from the checkpoint)
        WeightScope top = decRoot;
        Linear head = top.has(layout.outputHead() + ".weight")
                ? Linear.loadWithoutBias(top.child(layout.outputHead()))
                : new Linear(dec.weight("embed_tokens.weight"), null);
        requireShape(layout.outputHead(), head, c.vocabulary(), d);
        return new MoonshineWeights(
                c,
                stores,
                new MoonshineNetwork.Encoder(stem, List.copyOf(encoderLayers), norm(enc, "layer_norm", d)),
                new MoonshineNetwork.Decoder(embedding, List.copyOf(decoderLayers), norm(dec, "norm", d), head));
    }

    public MoonshineConfig config() {
        return config;
    }

    /** The store that owns derived constants (masks, positions) for the encoder's graphs. */
    WeightStore encoderConstants() {
        return stores.getFirst();
    }

    WeightStore decoderConstants() {
        return stores.getLast();
    }

    @Override
    public void close() {
        stores.forEach(WeightStore::close);
    }

    private static WeightScope scoped(WeightScope root, String prefix) {
        return prefix.isEmpty() ? root : root.child(prefix);
    }

    private static MultiHeadAttention attention(
            WeightScope s,
            MoonshineLayout layout,
            int heads,
            int kvHeads,
            dev.audioengine.blocks.Rotary rotary,
            Set<Capability> effective,
            int d) {
        MultiHeadAttention a = new MultiHeadAttention(
                Linear.loadWithoutBias(s.child("q_proj")),
                Linear.loadWithoutBias(s.child("k_proj")),
                Linear.loadWithoutBias(s.child("v_proj")),
                Linear.loadWithoutBias(s.child(layout.attentionOutput())),
                heads,
                kvHeads,
                rotary,
                effective,
                s.store());
        if (a.heads() * a.headDim() != d)
            throw new IllegalArgumentException(s + ": attention of " + heads + " heads does not span " + d);
        return a;
    }

    private static LayerNorm norm(WeightScope s, String name, int d) {
        LayerNorm n =
                new LayerNorm(s.tensor(name + ".weight"), s.optionalTensor(name + ".bias"), MoonshineConfig.NORM_EPS);
        HostTensor w = s.tensor(name + ".weight");
        if (w.shape().rank() != 1 || w.shape().dim(0) != d)
            throw new IllegalArgumentException(s.full(name + ".weight") + " is " + w.shape() + ", want [" + d + "]");
        return n;
    }

    private static Conv1d check(Conv1d conv, long outChannels, String name) {
        if (conv.outChannels() != outChannels)
            throw new IllegalArgumentException(
                    name + " has " + conv.outChannels() + " output channels, want " + outChannels);
        return conv;
    }

    private static void requireShape(String name, Linear l, long out, long in) {
        if (l.outFeatures() != out || l.inFeatures() != in) {
            throw new IllegalArgumentException(
                    name + " is [" + l.outFeatures() + ", " + l.inFeatures() + "], want [" + out + ", " + in + "]");
        }
    }
}
