package dev.audioengine.backend.cpu.kernels.sequence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.RopeMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.ReferenceCheck;
import dev.audioengine.backend.cpu.kernels.ReferenceCheck.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * get_rows and rope on the CPU against the reference; key_mask against masks written out by hand. get_rows copies (dequantized) rows, so it
 * must match exactly. rope: NMSE 1e-11 (angles in double, rotation in float; measured ~1e-14).
 */
class SequenceKernelTest {
    private static AudioEngine engine;

    @BeforeAll
    static void open() {
        engine = AudioEngine.builder()
                .backend("cpu")
                .threads(3)
                .option("cpu.op-threads", "all")
                .build();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"F32", "F16", "BF16", "Q8_0", "Q4_0"})
    void getRowsOfEveryTableDtype(DType dtype) {
        for (int d : new int[] {32, 96, 288}) {
            try (ReferenceCheck c = new ReferenceCheck()) {
                Tensor table = c.constant(dtype, Shape.of(37, d), -2, 2);
                Tensor ids = c.bind("ids", c.random.i32(Shape.of(2, 9), 0, 37));
                c.assertMaxAbs(engine, "get_rows " + dtype + " D=" + d, c.g.getRows(table, ids), 0);
            }
        }
    }

    @Test
    void getRowsOfStridedTablesAndIds() {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor table = c.input("table", Shape.of(11, 7), Layout.TRANSPOSED);
            Tensor ids = c.g.transpose(c.bind("ids", c.random.i32(Shape.of(5, 3), 0, 11)), 0, 1);
            c.assertMaxAbs(engine, "get_rows strided", c.g.getRows(table, ids), 0);
        }
    }

    @Test
    void getRowsRejectsAnIdOutsideTheTable() {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor table = c.constant(Shape.of(4, 3), -1, 1);
            Tensor ids = c.bind("ids", HostTensor.ofInts(Shape.of(3), 0, 4, 1));
            assertThatThrownBy(() -> c.runOnCpu(engine, c.g.getRows(table, ids)))
                    .hasMessageContaining("id 4");
        }
    }

    static List<Arguments> ropeCases() {
        List<Arguments> cases = new ArrayList<>();
        for (RopeMode mode : RopeMode.values()) {
            for (int[] dd : new int[][] {{2, 2}, {8, 8}, {64, 64}, {16, 33}, {32, 257}, {32, 36}, {40, 44}, {66, 67}}) {
                for (Layout layout : Layout.values()) cases.add(Arguments.of(mode, dd[0], dd[1], layout));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} dims {1} of D {2} {3}")
    @MethodSource("ropeCases")
    void ropeMatchesReference(RopeMode mode, int dims, int d, Layout layout) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(2, 3, 7, d), layout, -2, 2);
            Tensor pos = c.bind("pos", c.random.i32(Shape.of(7), 0, 4096));
            c.assertNmse(engine, "rope " + mode, c.g.rope(x, pos, dims, 10000f, mode), 1e-11);
        }
    }

    /** The cos/sin tables are refilled every run: new positions on a second run must take effect. */
    @Test
    void ropeReadsPositionsEveryRun() {
        try (ReferenceCheck c = new ReferenceCheck();
                HostTensor x = c.random.f32(Shape.of(1, 1, 3, 4), -1, 1);
                HostTensor p1 = HostTensor.ofInts(Shape.of(3), 0, 1, 2);
                HostTensor p2 = HostTensor.ofInts(Shape.of(3), 5, 9, 100)) {
            Tensor xt = c.g.input("x", Shape.of(1, 1, 3, 4));
            Tensor pt = c.g.input("pos", DType.I32, Shape.of(3));
            Tensor y = c.g.rope(xt, pt, 4, 10000f, RopeMode.NEOX);
            var graph = c.g.build(y);
            try (CompiledGraph cg = engine.compile(graph)) {
                cg.run(Map.of("x", x, "pos", p1)).close();
                try (CompiledGraph.Outputs o = cg.run(Map.of("x", x, "pos", p2))) {
                    double[] ref =
                            dev.audioengine.reference.ReferenceEvaluator.evaluate(graph, Map.of("x", x, "pos", p2), y);
                    dev.audioengine.api.testkit.Closeness.assertNmse(
                            "rope second run", y.shape(), c.seed, o.get(0).toFloatArray(), ref, 1e-11);
                }
            }
        }
    }

    /**
     * key_mask of a batch of caches of capacity 5, two queries, lengths 0, 2, the capacity and past it: [B, 1, 2, 5],
     * element b masked by its own length ('o' visible, 'x' -inf), written out by hand; then a second run with other
     * lengths (the lengths are read every run), and a single length, which stays [Tq, Tk].
     */
    @Test
    void keyMaskOfABatchMasksEachElementByItsOwnLength() {
        for (boolean causal : new boolean[] {false, true}) {
            GraphBuilder g = new GraphBuilder();
            Tensor mask = g.keyMask(g.input("len", DType.I32, Shape.of(4)), 2, 5, causal);
            assertThat(mask.shape()).isEqualTo(Shape.of(4, 1, 2, 5));
            String first = causal
                    ? "xxxxx xxxxx | oxxxx ooxxx | oooox ooooo | ooooo ooooo"
                    : "xxxxx xxxxx | ooxxx ooxxx | ooooo ooooo | ooooo ooooo";
            String second = causal
                    ? "ooxxx oooxx | xxxxx xxxxx | xxxxx oxxxx | oooox ooooo"
                    : "oooxx oooxx | xxxxx xxxxx | oxxxx oxxxx | ooooo ooooo";
            try (CompiledGraph cg = engine.compile(g.build(mask));
                    HostTensor a = HostTensor.ofInts(Shape.of(4), 0, 2, 5, 9);
                    HostTensor b = HostTensor.ofInts(Shape.of(4), 3, -4, 1, 5)) {
                try (CompiledGraph.Outputs o = cg.run(Map.of("len", a))) {
                    assertThat(o.get(0).toFloatArray()).as("causal " + causal).containsExactly(masks(first));
                }
                try (CompiledGraph.Outputs o = cg.run(Map.of("len", b))) {
                    assertThat(o.get(0).toFloatArray()).as("causal " + causal).containsExactly(masks(second));
                }
            }
        }
        GraphBuilder g = new GraphBuilder();
        Tensor one = g.keyMask(g.input("len", DType.I32, Shape.of(1)), 2, 5, true);
        try (CompiledGraph cg = engine.compile(g.build(one));
                HostTensor len = HostTensor.ofInts(Shape.of(1), 3);
                CompiledGraph.Outputs o = cg.run(Map.of("len", len))) {
            assertThat(o.get(0).shape()).isEqualTo(Shape.of(2, 5));
            assertThat(o.get(0).toFloatArray()).containsExactly(masks("ooxxx oooxx"));
        }
    }

    /** 'o' is 0 (visible), 'x' is -inf; anything else is layout. */
    private static float[] masks(String pattern) {
        String p = pattern.replaceAll("[^ox]", "");
        float[] m = new float[p.length()];
        for (int i = 0; i < m.length; i++) m[i] = p.charAt(i) == 'o' ? 0f : Float.NEGATIVE_INFINITY;
        return m;
    }
}
