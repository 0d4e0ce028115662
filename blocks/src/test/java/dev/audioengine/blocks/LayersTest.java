package dev.audioengine.blocks;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moonshine-shaped encoder and decoder layers (pre-norm LayerNorm without bias, partial
 * interleaved rotary, GELU MLP / SwiGLU halves, grouped heads) on random weights and odd sizes:
 * float64 reference on the CPU in both attention lowerings, which must agree.
 */
class LayersTest {
    private static AudioEngine engine;

    @TempDir
    static Path dir;

    private static final int D = 36, HEADS = 6, KV = 3, HEAD = 6, FF = 50, DM = 36;

    @BeforeAll
    static void open() {
        engine = BlockCheck.cpu();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    private static RandomCheckpoint attention(RandomCheckpoint ck, String p, int kin) {
        return ck.weight(p + ".q_proj.weight", HEADS * HEAD, D)
                .weight(p + ".k_proj.weight", KV * HEAD, kin)
                .weight(p + ".v_proj.weight", KV * HEAD, kin)
                .weight(p + ".o_proj.weight", D, HEADS * HEAD);
    }

    private static MultiHeadAttention attention(WeightScope s, Rotary rotary, Set<Capability> caps) {
        return MultiHeadAttention.load(s, "q_proj", "k_proj", "v_proj", "o_proj", HEADS, KV, rotary, caps);
    }

    @Test
    void encoderLayer() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck = attention(new RandomCheckpoint(r), "self_attn", D)
                .uniform("input_layernorm.weight", 0.5f, 1.5f, D)
                .uniform("post_attention_layernorm.weight", 0.5f, 1.5f, D)
                .weight("mlp.fc1.weight", FF, D)
                .weight("mlp.fc1.bias", FF)
                .weight("mlp.fc2.weight", D, FF)
                .weight("mlp.fc2.bias", D);
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, 11, D))) {
            float[][] out = new float[2][];
            int i = 0;
            for (Set<Capability> caps :
                    java.util.List.<Set<Capability>>of(EnumSet.of(Capability.FUSED_ATTENTION), Set.of())) {
                WeightScope s = store.scope();
                EncoderLayer layer = new EncoderLayer(
                        LayerNorm.load(s.child("input_layernorm"), 1e-5f),
                        attention(s.child("self_attn"), Rotary.partial(HEAD, 0.9, 10000, true), caps),
                        LayerNorm.load(s.child("post_attention_layernorm"), 1e-5f),
                        FeedForward.plain(
                                Linear.load(s.child("mlp.fc1")),
                                Linear.load(s.child("mlp.fc2")),
                                FeedForward.Activation.GELU));
                GraphBuilder g = new GraphBuilder();
                Tensor y = layer.apply(g, g.input("x", x.shape()), null);
                out[i++] = BlockCheck.run(engine, "encoder layer " + caps, g.build(y), Map.of("x", x), seed);
            }
            Closeness.assertNmse(
                    "encoder layer: fused vs composite",
                    Shape.of(2, 11, D),
                    seed,
                    out[1],
                    BlockCheck.widen(out[0]),
                    1e-10);
        }
    }

    @Test
    void decoderLayer() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck = attention(attention(new RandomCheckpoint(r), "self_attn", D), "encoder_attn", DM)
                .uniform("input_layernorm.weight", 0.5f, 1.5f, D)
                .uniform("post_attention_layernorm.weight", 0.5f, 1.5f, D)
                .uniform("final_layernorm.weight", 0.5f, 1.5f, D)
                .weight("mlp.fc1.weight", 2 * FF, D)
                .weight("mlp.fc1.bias", 2 * FF)
                .weight("mlp.fc2.weight", D, FF)
                .weight("mlp.fc2.bias", D);
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, 5, D));
                HostTensor mem = r.f32(Shape.of(2, 13, DM))) {
            float[][] out = new float[2][];
            int i = 0;
            for (Set<Capability> caps :
                    java.util.List.<Set<Capability>>of(EnumSet.of(Capability.FUSED_ATTENTION), Set.of())) {
                WeightScope s = store.scope();
                LayerNorm selfNorm = LayerNorm.load(s.child("input_layernorm"), 1e-5f);
                MultiHeadAttention self = attention(s.child("self_attn"), Rotary.partial(HEAD, 0.9, 10000, true), caps);
                LayerNorm crossNorm = LayerNorm.load(s.child("post_attention_layernorm"), 1e-5f);
                MultiHeadAttention cross = attention(s.child("encoder_attn"), null, caps);
                LayerNorm ffnNorm = LayerNorm.load(s.child("final_layernorm"), 1e-5f);
                FeedForward ffn = FeedForward.gatedHalves(
                        Linear.load(s.child("mlp.fc1")), Linear.load(s.child("mlp.fc2")), FeedForward.Activation.SILU);
                GraphBuilder g = new GraphBuilder();
                Tensor in = g.input("x", x.shape()), memory = g.input("mem", mem.shape());
                // a pre-norm decoder layer (Moonshine's): causal self-attention, cross-attention, feed-forward
                Tensor h = g.add(in, self.self(g, selfNorm.apply(g, in), null, true));
                h = g.add(h, cross.cross(g, crossNorm.apply(g, h), memory));
                Tensor y = g.add(h, ffn.apply(g, ffnNorm.apply(g, h)));
                out[i++] =
                        BlockCheck.run(engine, "decoder layer " + caps, g.build(y), Map.of("x", x, "mem", mem), seed);
            }
            Closeness.assertNmse(
                    "decoder layer: fused vs composite",
                    Shape.of(2, 5, D),
                    seed,
                    out[1],
                    BlockCheck.widen(out[0]),
                    1e-10);
        }
    }

    @Test
    void biLstm() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        int in = 7, hidden = 5, b = 2, t = 9;
        RandomCheckpoint ck = new RandomCheckpoint(r);
        for (String sfx : new String[] {"", "_reverse"}) {
            ck.weight("lstm.weight_ih_l0" + sfx, 4 * hidden, in)
                    .weight("lstm.weight_hh_l0" + sfx, 4 * hidden, hidden)
                    .weight("lstm.bias_ih_l0" + sfx, 4 * hidden)
                    .weight("lstm.bias_hh_l0" + sfx, 4 * hidden);
        }
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(b, t, in))) {
            BiLstm lstm = BiLstm.load(store.scope().child("lstm"));
            GraphBuilder g = new GraphBuilder();
            Tensor y = lstm.apply(g, g.input("x", x.shape()));
            float[] got = BlockCheck.run(engine, "BiLSTM", g.build(y), Map.of("x", x), seed);
            // torch.nn.LSTM(bidirectional=True, batch_first=True): output[b, t] = [forward h_t, backward h_t]
            double[] xd = BlockCheck.widen(x.toFloatArray()), expect = new double[b * t * 2 * hidden];
            for (int bi = 0; bi < b; bi++) {
                double[] seq = java.util.Arrays.copyOfRange(xd, bi * t * in, (bi + 1) * t * in),
                        rev = new double[seq.length];
                for (int s = 0; s < t; s++) System.arraycopy(seq, (t - 1 - s) * in, rev, s * in, in);
                double[] f = Float64Blocks.lstm(
                        seq,
                        t,
                        in,
                        ck.values("lstm.weight_ih_l0"),
                        ck.values("lstm.weight_hh_l0"),
                        ck.values("lstm.bias_ih_l0"),
                        ck.values("lstm.bias_hh_l0"),
                        hidden);
                double[] bw = Float64Blocks.lstm(
                        rev,
                        t,
                        in,
                        ck.values("lstm.weight_ih_l0_reverse"),
                        ck.values("lstm.weight_hh_l0_reverse"),
                        ck.values("lstm.bias_ih_l0_reverse"),
                        ck.values("lstm.bias_hh_l0_reverse"),
                        hidden);
                for (int s = 0; s < t; s++) {
                    System.arraycopy(f, s * hidden, expect, ((bi * t + s) * 2) * hidden, hidden);
                    System.arraycopy(bw, (t - 1 - s) * hidden, expect, ((bi * t + s) * 2 + 1) * hidden, hidden);
                }
            }
            Closeness.assertNmse("BiLSTM vs torch's definition in float64", y.shape(), seed, got, expect, 1e-9);
        }
    }
}
