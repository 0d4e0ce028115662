package dev.audioengine.models.whisper;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.EncoderLayer;
import dev.audioengine.blocks.FeedForward;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.LogMel;
import dev.audioengine.blocks.MultiHeadAttention;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import dev.audioengine.models.whisper.WhisperNetwork.Decoder;
import dev.audioengine.models.whisper.WhisperNetwork.DecoderLayer;
import dev.audioengine.models.whisper.WhisperNetwork.Encoder;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Whisper's weights read into {@link WhisperNetwork}'s records from either of the two layouts users have: OpenAI's
 * names (whisper.cpp's ggml files keep them: {@code encoder.blocks.N.attn.query}, {@code decoder.token_embedding}, ...)
 * and transformers' ({@code model.encoder.layers.N.self_attn.q_proj}, ...). The store owns every tensor.
 */
final class WhisperWeights implements AutoCloseable {
    /** The two naming schemes. */
    enum Layout {
        OPENAI,
        TRANSFORMERS
    }

    final WhisperConfig config;
    final Encoder encoder;
    final Decoder decoder;
    private final WeightStore store;

    private WhisperWeights(WhisperConfig config, Encoder encoder, Decoder decoder, WeightStore store) {
        this.config = config;
        this.encoder = encoder;
        this.decoder = decoder;
        this.store = store;
    }

    /**
     * Reads the network from {@code store}; {@code melFilters} [mels, 201] is the file's own filterbank (ggml files)
     * or null for the Slaney filterbank Whisper's feature extractor builds.
     */
    static WhisperWeights read(
            WhisperConfig c, Layout layout, WeightStore store, HostTensor melFilters, Set<Capability> effective) {
        WeightScope root = store.scope();
        boolean openai = layout == Layout.OPENAI;
        float eps = WhisperConfig.NORM_EPS;
        WeightScope enc = root.child(openai ? "encoder" : "model.encoder");
        WeightScope dec = root.child(openai ? "decoder" : "model.decoder");

        Conv1d conv1 = conv(enc.child("conv1"), 1), conv2 = conv(enc.child("conv2"), 2);
        HostTensor encPositions = enc.tensor(openai ? "positional_embedding" : "embed_positions.weight");
        List<EncoderLayer> encLayers = new ArrayList<>();
        for (int l = 0; l < c.audioLayers(); l++) {
            WeightScope s = enc.child(openai ? "blocks" : "layers", l);
            encLayers.add(new EncoderLayer(
                    LayerNorm.load(s.child(openai ? "attn_ln" : "self_attn_layer_norm"), eps),
                    attention(s.child(openai ? "attn" : "self_attn"), openai, c.audioHeads(), effective),
                    LayerNorm.load(s.child(openai ? "mlp_ln" : "final_layer_norm"), eps),
                    mlp(s, openai)));
        }
        LayerNorm encNorm = LayerNorm.load(enc.child(openai ? "ln_post" : "layer_norm"), eps);

        List<DecoderLayer> decLayers = new ArrayList<>();
        List<MultiHeadAttention> cross = new ArrayList<>();
        for (int l = 0; l < c.textLayers(); l++) {
            WeightScope s = dec.child(openai ? "blocks" : "layers", l);
            MultiHeadAttention crossAttention =
                    attention(s.child(openai ? "cross_attn" : "encoder_attn"), openai, c.textHeads(), effective);
            cross.add(crossAttention);
            decLayers.add(new DecoderLayer(
                    LayerNorm.load(s.child(openai ? "attn_ln" : "self_attn_layer_norm"), eps),
                    decoderSelfAttention(s.child(openai ? "attn" : "self_attn"), openai, c.textHeads(), effective),
                    LayerNorm.load(s.child(openai ? "cross_attn_ln" : "encoder_attn_layer_norm"), eps),
                    crossAttention,
                    LayerNorm.load(s.child(openai ? "mlp_ln" : "final_layer_norm"), eps),
                    mlp(s, openai)));
        }
        String table = openai ? "token_embedding.weight" : "embed_tokens.weight";
        // the token table is also the head's weight (every decoder step reads all of it: large-v3-turbo's 51866 x 1280
        // is 265 MB in F32, more than its four layers in F16). Stored F16, it stays F16 for both: every backend reads
        // F16 in get_rows and matmul. Otherwise both read one F32 copy, as before: the weight itself when it came as
        // F32 (stored so, or widened), else (kept in its blocks, or BF16) the F32 table get_rows reads.
        HostTensor kept = dec.weight(table);
        HostTensor tokens = kept.dtype() == DType.F16 || kept.dtype() == DType.F32 ? kept : dec.tensor(table);
        Decoder decoder = new Decoder(
                tokens,
                dec.tensor(openai ? "positional_embedding" : "embed_positions.weight"),
                decLayers,
                LayerNorm.load(dec.child(openai ? "ln" : "layer_norm"), eps),
                new Linear(tokens, null));
        HostTensor zero = store.derived("whisper zero", () -> HostTensor.ofInts(Shape.of(1), 0));
        Encoder encoder = new Encoder(
                zero,
                LogMel.whisper(c.mels(), store, melFilters),
                conv1,
                conv2,
                encPositions,
                encLayers,
                encNorm,
                cross);
        check(c, encoder, decoder);
        return new WhisperWeights(c, encoder, decoder, store);
    }

    private static void check(WhisperConfig c, Encoder e, Decoder d) {
        Shape want = Shape.of(c.audioCtx(), c.audioState());
        if (!e.positions().shape().equals(want))
            throw new IllegalArgumentException(
                    "encoder positions are " + e.positions().shape() + ", want " + want);
        if (d.embedding().shape().dim(0) != c.vocabulary()
                || d.positions().shape().dim(0) != c.textCtx())
            throw new IllegalArgumentException("decoder tables " + d.embedding().shape() + " and "
                    + d.positions().shape() + " do not fit " + c.vocabulary() + " tokens and " + c.textCtx()
                    + " positions");
    }

    /** A conv with padding 1; whisper.cpp's files hold its bias as [d, 1], transformers' as [d]. */
    private static Conv1d conv(WeightScope s, int stride) {
        HostTensor bias = s.tensor("bias");
        if (bias.shape().rank() != 1) {
            HostTensor b = bias;
            bias = s.store().derived("flat " + s.full("bias"), () -> b.reshaped(Shape.of(b.elements())));
        }
        return new Conv1d(s.tensor("weight"), bias, stride, 1, 1, 1);
    }

    private static MultiHeadAttention attention(WeightScope s, boolean openai, int heads, Set<Capability> effective) {
        Linear q = Linear.load(s.child(openai ? "query" : "q_proj")),
                k = Linear.loadWithoutBias(s.child(openai ? "key" : "k_proj")),
                v = Linear.load(s.child(openai ? "value" : "v_proj")),
                o = Linear.load(s.child(openai ? "out" : "out_proj"));
        return new MultiHeadAttention(q, k, v, o, heads, heads, null, effective, s.store());
    }

    /**
     * The decoder's self-attention, its query, key and value weights stacked into one product (the key's missing bias
     * is zero there): a decoder step is a chain of small products, each paid per launch on a GPU. Not the encoder's:
     * its products are wide and run once a window, and a stacked copy is memory of its own (Whisper's files are mapped,
     * not prepared): 315 MB for large-v3-turbo's 32 encoder layers in F16, 39 MB for its 4 decoder layers.
     */
    private static MultiHeadAttention decoderSelfAttention(
            WeightScope s, boolean openai, int heads, Set<Capability> effective) {
        return attention(s, openai, heads, effective).withStackedProjections(s.prefix() + " q,k,v");
    }

    private static FeedForward mlp(WeightScope s, boolean openai) {
        return FeedForward.plain(
                Linear.load(s.child(openai ? "mlp.0" : "fc1")),
                Linear.load(s.child(openai ? "mlp.2" : "fc2")),
                FeedForward.Activation.GELU);
    }

    @Override
    public void close() {
        store.close();
    }
}
