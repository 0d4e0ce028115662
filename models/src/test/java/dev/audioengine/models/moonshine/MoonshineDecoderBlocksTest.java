package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.blocks.FeedForward;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.MultiHeadAttention;
import dev.audioengine.blocks.Rotary;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The blocks fit Moonshine's decoder: embedding, 6 pre-norm decoder layers (causal self-attention
 * with partial rotary, cross-attention, SwiGLU halves) and the tied output head on the real 8-bit
 * weights, decoding a token prefix in one graph (no cache). Reference: ONNX Runtime on the real
 * files: its encoder's output for recorded speech (pocketsphinx's cards/001.wav), its merged
 * decoder (no-cache branch, zero-length past) decoding greedily from BOS; the blocks get the same
 * encoder output and ORT's tokens and must predict the same next token at every position, with
 * logits within ORT's 8-bit activation rounding.
 */
class MoonshineDecoderBlocksTest {
    private static final Path SPEECH = Path.of("/usr/share/pocketsphinx/test/data/cards/001.wav");
    private static final int D = 288, VOCAB = 32768, STEPS = 8;

    @Test
    void tinyDecoderFromBlocksTracksOnnxRuntime() throws Exception {
        if (!Files.exists(SPEECH))
            throw new IllegalStateException(SPEECH + " is missing: install Debian's pocketsphinx-testdata");
        AudioClip clip = WavReader.read(SPEECH);
        assertThat(clip.sampleRate()).isEqualTo(16000);
        OrtEnvironment env = OrtEnvironment.getEnvironment();

        float[] memory;
        int tm;
        try (OrtSession enc = env.createSession(
                        MoonshineFixtures.file(MoonshineFamily.TINY_ENCODER).toString(),
                        new OrtSession.SessionOptions());
                OnnxTensor x = OnnxTensor.createTensor(
                        env, FloatBuffer.wrap(clip.samples()), new long[] {1, clip.samples().length});
                OrtSession.Result res = enc.run(Map.of("input_values", x))) {
            OnnxTensor y = (OnnxTensor) res.get("last_hidden_state").orElseThrow();
            tm = (int) y.getInfo().getShape()[1];
            FloatBuffer b = y.getFloatBuffer();
            memory = new float[b.remaining()];
            b.get(memory);
        }

        Path decoder = MoonshineFixtures.file(MoonshineFamily.TINY_DECODER);
        List<Integer> tokens = new ArrayList<>(List.of(1)); // BOS
        float[] ort = null;
        try (OrtSession dec = env.createSession(decoder.toString(), new OrtSession.SessionOptions())) {
            for (int step = 0; step < STEPS; step++) {
                ort = ortLogits(env, dec, tokens, memory, tm);
                if (step < STEPS - 1) tokens.add(argmax(ort, (tokens.size() - 1) * VOCAB));
            }
        }
        int t = tokens.size();
        int[] ids = tokens.stream().mapToInt(Integer::intValue).toArray();

        for (Set<Capability> caps : List.<Set<Capability>>of(Set.of(Capability.FUSED_ATTENTION), Set.of())) {
            try (AudioEngine engine =
                            AudioEngine.builder().backend("cpu").threads(2).build();
                    WeightStore store = WeightStore.open(decoder, DType.F32);
                    HostTensor idt = HostTensor.ofInts(Shape.of(1, t), ids);
                    HostTensor mem = HostTensor.ofFloats(Shape.of(1, tm, D), memory)) {
                GraphBuilder g = new GraphBuilder();
                Tensor logits = decoderGraph(
                        g, store, g.input("ids", DType.I32, idt.shape()), g.input("mem", mem.shape()), caps);
                try (CompiledGraph c = engine.compile(g.build(logits));
                        CompiledGraph.Outputs o = c.run(Map.of("ids", idt, "mem", mem))) {
                    float[] got = o.get(0).toFloatArray();
                    System.out.printf(
                            "Moonshine tiny decoder from blocks (%s) vs ONNX Runtime, tokens %s: logits NMSE %.3e%n",
                            caps, tokens, Closeness.nmse(got, widen(ort)));
                    for (int i = 0; i < t; i++) {
                        assertThat(argmax(got, i * VOCAB))
                                .as("next token after position %d of %s", i, tokens)
                                .isEqualTo(argmax(ort, i * VOCAB));
                    }
                    Closeness.assertNmse(
                            "Moonshine tiny decoder from blocks vs ONNX Runtime " + caps,
                            logits.shape(),
                            0,
                            got,
                            widen(ort),
                            5e-3);
                }
            }
        }
    }

    /** Token ids [1, T] and encoder states [1, Tm, 288] → logits [1, T, 32768]. */
    static Tensor decoderGraph(GraphBuilder g, WeightStore store, Tensor ids, Tensor memory, Set<Capability> caps) {
        WeightScope w = store.scope().child("model.decoder");
        Tensor h = g.getRows(g.constant(w.tensor("embed_tokens.weight")), ids);
        Rotary rotary = Rotary.partial(36, 0.9, 10000, true);
        for (int l = 0; l < 6; l++) {
            WeightScope layer = w.child("layers", l);
            h = decoderLayer(
                    g,
                    h,
                    memory,
                    LayerNorm.load(layer.child("input_layernorm"), 1e-5f),
                    MultiHeadAttention.load(
                            layer.child("self_attn"), "q_proj", "k_proj", "v_proj", "dense", 8, 8, rotary, caps),
                    LayerNorm.load(layer.child("post_attention_layernorm"), 1e-5f),
                    MultiHeadAttention.load(
                            layer.child("encoder_attn"), "q_proj", "k_proj", "v_proj", "dense", 8, 8, null, caps),
                    LayerNorm.load(layer.child("final_layernorm"), 1e-5f),
                    FeedForward.gatedHalves(
                            Linear.load(layer.child("mlp.up_proj")),
                            Linear.load(layer.child("mlp.down_proj")),
                            FeedForward.Activation.SILU));
        }
        h = LayerNorm.load(w.child("norm"), 1e-5f).apply(g, h);
        return Linear.loadWithoutBias(store.scope().child("proj_out")).apply(g, h);
    }

    /**
     * A pre-norm decoder layer over the whole prefix (no cache), the form a cached step must agree with:
     * x + causal self-attn(norm₁(x)), + cross-attn(norm₂(·), memory), + ffn(norm₃(·)).
     */
    static Tensor decoderLayer(
            GraphBuilder g,
            Tensor x,
            Tensor memory,
            LayerNorm selfNorm,
            MultiHeadAttention self,
            LayerNorm crossNorm,
            MultiHeadAttention cross,
            LayerNorm ffnNorm,
            FeedForward ffn) {
        Tensor h = g.add(x, self.self(g, selfNorm.apply(g, x), null, true));
        h = g.add(h, cross.cross(g, crossNorm.apply(g, h), memory));
        return g.add(h, ffn.apply(g, ffnNorm.apply(g, h)));
    }

    private static float[] ortLogits(OrtEnvironment env, OrtSession dec, List<Integer> tokens, float[] memory, int tm)
            throws Exception {
        Map<String, OnnxTensor> in = new HashMap<>();
        try {
            in.put(
                    "input_ids",
                    OnnxTensor.createTensor(
                            env,
                            LongBuffer.wrap(tokens.stream()
                                    .mapToLong(Integer::longValue)
                                    .toArray()),
                            new long[] {1, tokens.size()}));
            in.put("encoder_hidden_states", OnnxTensor.createTensor(env, FloatBuffer.wrap(memory), new long[] {1, tm, D
            }));
            in.put("use_cache_branch", OnnxTensor.createTensor(env, new boolean[] {false}));
            // the no-cache branch still reads the past length for its positions: zero-length pasts
            for (String name : dec.getInputNames()) {
                if (name.startsWith("past_key_values"))
                    in.put(name, OnnxTensor.createTensor(env, FloatBuffer.allocate(0), new long[] {1, 8, 0, 36}));
            }
            try (OrtSession.Result res = dec.run(in)) {
                FloatBuffer b = ((OnnxTensor) res.get("logits").orElseThrow()).getFloatBuffer();
                float[] out = new float[b.remaining()];
                b.get(out);
                return out;
            }
        } finally {
            in.values().forEach(OnnxTensor::close);
        }
    }

    private static int argmax(float[] v, int from) {
        int best = 0;
        for (int i = 1; i < VOCAB; i++) if (v[from + i] > v[from + best]) best = i;
        return best;
    }

    private static double[] widen(float[] f) {
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) d[i] = f[i];
        return d;
    }
}
