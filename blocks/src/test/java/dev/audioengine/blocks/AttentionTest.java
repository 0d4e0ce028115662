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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Multi-head attention with grouped heads, self (causal or not, with partial rotary) and cross,
 * in both lowerings: each against the float64 reference on the CPU, the two against each other,
 * and the block against an independent float64 attention (Float64Blocks) so the graph itself is
 * checked, not only the kernels.
 */
class AttentionTest {
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

    @ParameterizedTest(name = "{0}: H {1}, Hkv {2}, head {3}, Tq {4}, Tk {5}")
    @CsvSource({
        "self,8,8,36,9,9",
        "causal,8,8,36,9,9",
        "causal,6,2,13,7,7",
        "self,6,3,10,5,5",
        "cross,8,8,36,6,23",
        "cross,6,2,11,1,17",
        "causal,4,1,8,1,1"
    })
    void bothLoweringsMatchFloat64(String form, int heads, int kvHeads, int headDim, int tq, int tk) {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        int d = 29, dm = 19, b = 2; // model width, memory width: odd on purpose
        boolean cross = form.equals("cross");
        int kin = cross ? dm : d;
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .weight("q.weight", (long) heads * headDim, d)
                .weight("k.weight", (long) kvHeads * headDim, kin)
                .weight("v.weight", (long) kvHeads * headDim, kin)
                .weight("v.bias", (long) kvHeads * headDim)
                .weight("o.weight", d, (long) heads * headDim);
        Rotary rotary = cross ? null : Rotary.partial(headDim, 0.9, 10000, true);
        float[] outFused, outComposite;
        try (WeightStore store = ck.open(dir, DType.F32);
                HostTensor x = r.f32(Shape.of(b, tq, d));
                HostTensor mem = r.f32(Shape.of(b, tk, dm))) {
            Map<String, HostTensor> in = cross ? Map.of("x", x, "mem", mem) : Map.of("x", x);
            java.util.function.BiFunction<Set<Capability>, Boolean, float[]> block = (effective, stacked) ->
                    run(store.scope(), effective, form, heads, kvHeads, rotary, x, mem, in, seed, stacked);
            outFused = block.apply(EnumSet.of(Capability.FUSED_ATTENTION), false);
            outComposite = block.apply(Set.of(), false);
            Shape shape = Shape.of(b, tq, d);
            Closeness.assertNmse(
                    "fused vs composite lowering", shape, seed, outComposite, BlockCheck.widen(outFused), 1e-10);

            double[] xd = BlockCheck.widen(x.toFloatArray()), kvIn = cross ? BlockCheck.widen(mem.toFloatArray()) : xd;
            int tkv = cross ? tk : tq;
            double[] q = Float64Blocks.heads(
                    Float64Blocks.linear(xd, b * tq, ck.values("q.weight"), null, d, heads * headDim),
                    b,
                    tq,
                    heads,
                    headDim);
            double[] k = Float64Blocks.heads(
                    Float64Blocks.linear(kvIn, b * tkv, ck.values("k.weight"), null, kin, kvHeads * headDim),
                    b,
                    tkv,
                    kvHeads,
                    headDim);
            double[] v = Float64Blocks.heads(
                    Float64Blocks.linear(
                            kvIn, b * tkv, ck.values("v.weight"), ck.values("v.bias"), kin, kvHeads * headDim),
                    b,
                    tkv,
                    kvHeads,
                    headDim);
            if (rotary != null) {
                for (int row = 0; row < b * heads; row++)
                    for (int t = 0; t < tq; t++)
                        Float64Blocks.rotary(q, (row * tq + t) * headDim, rotary.dims(), 10000, true, t);
                for (int row = 0; row < b * kvHeads; row++)
                    for (int t = 0; t < tq; t++)
                        Float64Blocks.rotary(k, (row * tq + t) * headDim, rotary.dims(), 10000, true, t);
            }
            double[] att = Float64Blocks.attention(q, k, v, b, heads, kvHeads, tq, tkv, headDim, form.equals("causal"));
            double[] expect = Float64Blocks.linear(
                    Float64Blocks.merge(att, b, tq, heads, headDim),
                    b * tq,
                    ck.values("o.weight"),
                    null,
                    heads * headDim,
                    d);
            Closeness.assertNmse("attention block vs independent float64", shape, seed, outComposite, expect, 1e-9);
            Closeness.assertNmse("attention block vs independent float64", shape, seed, outFused, expect, 1e-9);
            if (!cross) {
                // q, k and v in one product (the keys have no bias, the values do: the stacked bias is zero there)
                float[] outStacked = block.apply(EnumSet.of(Capability.FUSED_ATTENTION), true);
                Closeness.assertNmse(
                        "stacked projections vs independent float64", shape, seed, outStacked, expect, 1e-9);
            }
        }
    }

    /**
     * Stacked projections are the three products: queries, keys and values from one stacked weight equal those from
     * the three weights bit for bit on the CPU (each output is the same dot product over the same inputs), for float
     * and block weight types (a stacked quantized weight is the parts' blocks row after row), one row (a decoder
     * step), a few and many (an encoder's GEMM), grouped heads, a partial rotary at scattered positions and a bias on
     * some parts only.
     */
    @ParameterizedTest(name = "{0}, {1} rows")
    @CsvSource({"F32,1", "F32,67", "F16,1", "F16,5", "F16,67", "Q8_0,1", "Q8_0,5", "Q8_0,67"})
    void stackedProjectionsGiveTheThreeProducts(DType weightType, int t) {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        int d = 96, heads = 6, kvHeads = 2, headDim = 16, b = 2;
        RandomCheckpoint ck = new RandomCheckpoint(r)
                .weight("q.weight", (long) heads * headDim, d)
                .weight("q.bias", (long) heads * headDim)
                .weight("k.weight", (long) kvHeads * headDim, d)
                .weight("v.weight", (long) kvHeads * headDim, d)
                .weight("v.bias", (long) kvHeads * headDim)
                .weight("o.weight", d, (long) heads * headDim);
        Rotary rotary = Rotary.partial(headDim, 0.5, 10000, false);
        int[] at = java.util.stream.IntStream.range(0, t)
                .map(i -> (i * 37 + 7) % 401)
                .toArray();
        try (WeightStore store = ck.open(dir, weightType);
                HostTensor x = r.f32(Shape.of(b, t, d));
                HostTensor positions = HostTensor.ofInts(Shape.of(t), at)) {
            MultiHeadAttention three =
                    MultiHeadAttention.load(store.scope(), "q", "k", "v", "o", heads, kvHeads, rotary, Set.of());
            MultiHeadAttention one = three.withStackedProjections("q,k,v");
            float[][] apart = projections(three, x, positions, false);
            float[][] stacked = projections(one, x, positions, true);
            String[] names = {"queries", "keys", "values"};
            for (int i = 0; i < 3; i++) {
                Closeness.assertMaxAbs(
                        weightType + " " + names[i] + ", " + t + " rows: stacked vs three products",
                        Shape.of(apart[i].length),
                        seed,
                        stacked[i],
                        BlockCheck.widen(apart[i]),
                        0);
            }
        }
    }

    private static float[][] projections(MultiHeadAttention att, HostTensor x, HostTensor positions, boolean stacked) {
        GraphBuilder g = new GraphBuilder();
        MultiHeadAttention.Projections p =
                att.project(g, g.input("x", x.shape()), g.input("positions", DType.I32, positions.shape()));
        var graph = g.build(g.contiguous(p.queries()), g.contiguous(p.keys()), g.contiguous(p.values()));
        long products = graph.nodes().stream()
                .filter(n -> n.op() instanceof dev.audioengine.api.graph.Op.MatMul)
                .count();
        if (products != (stacked ? 1 : 3)) throw new AssertionError(products + " products, stacked " + stacked);
        try (var compiled = engine.compile(graph);
                var out = compiled.run(Map.of("x", x, "positions", positions))) {
            return new float[][] {
                out.get(0).toFloatArray(), out.get(1).toFloatArray(), out.get(2).toFloatArray()
            };
        }
    }

    private static float[] run(
            WeightScope scope,
            Set<Capability> effective,
            String form,
            int heads,
            int kvHeads,
            Rotary rotary,
            HostTensor x,
            HostTensor mem,
            Map<String, HostTensor> in,
            long seed,
            boolean stacked) {
        MultiHeadAttention att = MultiHeadAttention.load(scope, "q", "k", "v", "o", heads, kvHeads, rotary, effective);
        if (stacked) att = att.withStackedProjections("q,k,v");
        GraphBuilder g = new GraphBuilder();
        Tensor xs = g.input("x", x.shape());
        Tensor y = switch (form) {
            case "cross" -> att.cross(g, xs, g.input("mem", mem.shape()));
            case "causal" -> att.self(g, xs, null, true);
            default -> att.self(g, xs, null, false);
        };
        var graph = g.build(y);
        boolean fused = graph.nodes().stream().anyMatch(t -> t.op() instanceof dev.audioengine.api.graph.Op.Attention);
        if (fused != effective.contains(Capability.FUSED_ATTENTION)) {
            throw new AssertionError(
                    "lowering ignored the effective set " + effective + ": fused op present = " + fused);
        }
        return BlockCheck.run(engine, form + " attention " + (fused ? "fused" : "composite"), graph, in, seed);
    }
}
