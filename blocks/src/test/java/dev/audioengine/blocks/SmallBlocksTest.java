package dev.audioengine.blocks;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Linear, the norms, the two FFN forms and Conv1d with weight norm: float64 reference on the CPU, plus independent float64 where the block's own wiring could be wrong. */
class SmallBlocksTest {
    private static AudioEngine engine;

    @TempDir
    static Path dir;

    @BeforeAll
    static void open() {
        engine = BlockCheck.cpu();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    private float[] run(String what, HostTensor x, BiFunction<GraphBuilder, Tensor, Tensor> block, long seed) {
        GraphBuilder g = new GraphBuilder();
        Tensor y = block.apply(g, g.input("x", x.shape()));
        return BlockCheck.run(engine, what, g.build(y), Map.of("x", x), seed);
    }

    @ParameterizedTest(name = "weights {0}")
    @ValueSource(strings = {"f32", "f16", "bf16", "q8_0"})
    void linearWithAndWithoutBias(String type) {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .weight("a.weight", 37, 64)
                .weight("a.bias", 37)
                .weight("b.weight", 5, 64);
        try (WeightStore store = ck.open(dir, DType.parse(type));
                HostTensor x = r.f32(Shape.of(3, 5, 64))) {
            Linear a = Linear.load(store.scope().child("a")),
                    b = Linear.load(store.scope().child("b"));
            assertThat(a.hasBias()).isTrue();
            assertThat(b.hasBias()).isFalse();
            float[] ya = run("linear+bias " + type, x, a::apply, seed);
            run("linear " + type, x, b::apply, seed);
            if (type.equals("f32")) {
                double[] e = Float64Blocks.linear(
                        BlockCheck.widen(x.toFloatArray()), 15, ck.values("a.weight"), ck.values("a.bias"), 64, 37);
                Closeness.assertNmse("linear vs float64", Shape.of(3, 5, 37), seed, ya, e, 1e-10);
            }
        }
    }

    @Test
    void norms() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .uniform("ln.weight", 0.5f, 1.5f, 33)
                .uniform("ln.bias", -1, 1, 33)
                .uniform("lnb.weight", 0.5f, 1.5f, 33)
                .uniform("gn.weight", 0.5f, 1.5f, 12)
                .uniform("gn.bias", -1, 1, 12);
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, 7, 33), -3, 5);
                HostTensor c = r.f32(Shape.of(2, 12, 9), -3, 5)) {
            WeightScope s = store.scope();
            run("layer norm", x, LayerNorm.load(s.child("ln"), 1e-5f)::apply, seed);
            run("layer norm without bias", x, LayerNorm.load(s.child("lnb"), 1e-5f)::apply, seed);
            run("group norm, 1 group", c, GroupNorm.load(s.child("gn"), 1, 1e-5f)::apply, seed);
            run("group norm, 3 groups", c, GroupNorm.load(s.child("gn"), 3, 1e-5f)::apply, seed);
        }
    }

    /**
     * The masked GroupNorm (items of different lengths padded to one) against the plain GroupNorm of each item cut to
     * its own length: groups of 1 and 3, lengths 9 and 5 of 9, the padding filled with large values that would move
     * the statistics if they were counted.
     */
    @Test
    void maskedGroupNormIsEachItemsOwnGroupNorm() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck =
                new RandomCheckpoint(r).uniform("gn.weight", 0.5f, 1.5f, 12).uniform("gn.bias", -1, 1, 12);
        int[] lengths = {9, 5};
        int c = 12, t = 9;
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, c, t), -3, 5)) {
            float[] padded = x.toFloatArray(), mask = new float[2 * t];
            for (int b = 0; b < 2; b++)
                for (int i = 0; i < t; i++) {
                    mask[b * t + i] = i < lengths[b] ? 1 : 0;
                    if (i >= lengths[b]) for (int ch = 0; ch < c; ch++) padded[(b * c + ch) * t + i] = 50;
                }
            for (int groups : new int[] {1, 3}) {
                GroupNorm norm = GroupNorm.load(store.scope().child("gn"), groups, 1e-5f);
                float[] masked;
                try (HostTensor in = HostTensor.ofFloats(Shape.of(2, c, t), padded);
                        HostTensor m = HostTensor.ofFloats(Shape.of(2, 1, t), mask)) {
                    GraphBuilder g = new GraphBuilder();
                    Tensor y = norm.apply(g, g.input("x", in.shape()), g.input("m", m.shape()));
                    masked = BlockCheck.run(engine, "masked group norm", g.build(y), Map.of("x", in, "m", m), seed);
                }
                for (int b = 0; b < 2; b++) {
                    int n = lengths[b];
                    float[] item = new float[c * n];
                    for (int ch = 0; ch < c; ch++) System.arraycopy(padded, (b * c + ch) * t, item, ch * n, n);
                    try (HostTensor alone = HostTensor.ofFloats(Shape.of(1, c, n), item)) {
                        float[] want = run("group norm of one item", alone, norm::apply, seed);
                        float[] got = new float[c * n];
                        for (int ch = 0; ch < c; ch++) System.arraycopy(masked, (b * c + ch) * t, got, ch * n, n);
                        Closeness.assertNmse(
                                groups + " groups, item " + b + " of length " + n + ": masked vs alone",
                                Shape.of(1, c, n),
                                seed,
                                got,
                                BlockCheck.widen(want),
                                1e-9);
                    }
                }
            }
        }
    }

    @Test
    void feedForwardForms() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        int d = 21, hidden = 34;
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .weight("fc1.weight", hidden, d)
                .weight("fc1.bias", hidden)
                .weight("fc2.weight", d, hidden)
                .weight("fc2.bias", d)
                .weight("up.weight", 2 * hidden, d)
                .weight("up.bias", 2 * hidden);
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, 5, d))) {
            WeightScope s = store.scope();
            Linear fc1 = Linear.load(s.child("fc1")),
                    fc2 = Linear.load(s.child("fc2")),
                    up = Linear.load(s.child("up"));
            float[] gelu = run("GELU MLP", x, FeedForward.plain(fc1, fc2, FeedForward.Activation.GELU)::apply, seed);
            float[] swiglu =
                    run("SwiGLU halves", x, FeedForward.gatedHalves(up, fc2, FeedForward.Activation.SILU)::apply, seed);
            run(
                    "gated, two projections",
                    x,
                    FeedForward.gated(fc1, fc1, fc2, FeedForward.Activation.SILU)::apply,
                    seed);

            double[] xd = BlockCheck.widen(x.toFloatArray());
            double[] h = Float64Blocks.linear(xd, 10, ck.values("fc1.weight"), ck.values("fc1.bias"), d, hidden);
            for (int i = 0; i < h.length; i++) h[i] = Float64Blocks.gelu(h[i]);
            Closeness.assertNmse(
                    "GELU MLP vs float64",
                    Shape.of(2, 5, d),
                    seed,
                    gelu,
                    Float64Blocks.linear(h, 10, ck.values("fc2.weight"), ck.values("fc2.bias"), hidden, d),
                    1e-9);
            // Moonshine's decoder: fc1 → [value | gate], silu(gate) · value
            double[] both = Float64Blocks.linear(xd, 10, ck.values("up.weight"), ck.values("up.bias"), d, 2 * hidden);
            double[] gated = new double[10 * hidden];
            for (int row = 0; row < 10; row++) {
                for (int j = 0; j < hidden; j++)
                    gated[row * hidden + j] =
                            Float64Blocks.silu(both[row * 2 * hidden + hidden + j]) * both[row * 2 * hidden + j];
            }
            Closeness.assertNmse(
                    "SwiGLU halves vs float64 (value first, gate second)",
                    Shape.of(2, 5, d),
                    seed,
                    swiglu,
                    Float64Blocks.linear(gated, 10, ck.values("fc2.weight"), ck.values("fc2.bias"), hidden, d),
                    1e-9);
        }
    }

    @Test
    void conv1dWithWeightNormFolded() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .uniform("c.weight_g", 0.5f, 2f, 6, 1, 1)
                .weight("c.weight_v", 6, 4, 5)
                .weight("c.bias", 6)
                .uniform("p.parametrizations.weight.original0", 0.5f, 2f, 6, 1, 1)
                .weight("p.parametrizations.weight.original1", 6, 2, 3)
                .weight("stem.weight", 8, 1, 127);
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, 4, 40));
                HostTensor audio = r.f32(Shape.of(1, 1, 700))) {
            WeightScope s = store.scope();
            Conv1d c = Conv1d.load(s.child("c"), 2, 2, 1, 1);
            run("conv1d weight_g/weight_v", x, c::apply, seed);
            run("conv1d parametrizations, groups 2, dilation 2", x, Conv1d.load(s.child("p"), 1, 1, 2, 2)::apply, seed);
            run("Moonshine stem conv k127 s64", audio, Conv1d.load(s.child("stem"), 64, 0, 1, 1)::apply, seed);
            // the fold itself: ‖w[o]‖ must equal g[o]
            float[] w = WeightNorm.weight(s.child("c")).toFloatArray(), g = ck.values("c.weight_g");
            for (int o = 0; o < 6; o++) {
                double sq = 0;
                for (int i = 0; i < 20; i++) sq += w[o * 20 + i] * (double) w[o * 20 + i];
                assertThat(Math.sqrt(sq)).as("‖w[%d]‖", o).isCloseTo(g[o], org.assertj.core.data.Offset.offset(1e-5));
            }
            assertThat(WeightNorm.weight(s.child("c"))).as("folded once").isSameAs(WeightNorm.weight(s.child("c")));
        }
    }

    @Test
    void convTransposeWithWeightNorm() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .uniform("up.weight_g", 0.5f, 2f, 6, 1, 1)
                .weight("up.weight_v", 6, 4, 10)
                .weight("up.bias", 4);
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(2, 6, 13))) {
            ConvTranspose1d up = ConvTranspose1d.load(
                    store.scope().child("up"), 5, 3, 1, 1, 1, Set.of(Capability.CONV_TRANSPOSE1D_COL2IM));
            float[] y = run("conv_transpose1d, weight norm over input channels", x, up::apply, seed);
            assertThat(y).hasSize(2 * 4 * ((13 - 1) * 5 - 6 + 9 + 1 + 1));
        }
    }
}
