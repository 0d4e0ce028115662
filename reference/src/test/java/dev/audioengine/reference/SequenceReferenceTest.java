package dev.audioengine.reference;

import static dev.audioengine.reference.Eval.assertValues;
import static dev.audioengine.reference.Eval.constant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.RopeMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SequenceReferenceTest {
    private static final float LN3 = (float) Math.log(3);

    @Test
    void getRowsLooksUpRowsOfAnyDtype() {
        GraphBuilder g = new GraphBuilder();
        Tensor table = g.constant(HostTensor.convert(DType.BF16, Shape.of(3, 2), new float[] {1, 2, 3, 4, 5, 6}));
        Tensor ids = g.constant(HostTensor.ofInts(Shape.of(3), 2, 0, 2));
        assertValues(Eval.of(g, g.getRows(table, ids)), 0, 5, 6, 1, 2, 5, 6);
    }

    @Test
    void getRowsRejectsIdsOutsideTheTable() {
        GraphBuilder g = new GraphBuilder();
        Tensor out = g.getRows(constant(g, Shape.of(2, 1), 1, 2), g.constant(HostTensor.ofInts(Shape.of(1), 2)));
        assertThatThrownBy(() -> Eval.of(g, out)).hasMessageContaining("id 2");
    }

    @Test
    void ropeRotatesPairsByPositionTimesFrequency() {
        // dims 4, base 100: θ0 = pos, θ1 = pos / 10; position 0 leaves x alone
        double c1 = Math.cos(1), s1 = Math.sin(1), c01 = Math.cos(0.1), s01 = Math.sin(0.1);
        assertValues(rope(RopeMode.NORMAL, 1, 0, 1, 0), 1e-7, 1, 0, 1, 0, 5, c1, s1, c01, s01, 5);
        assertValues(rope(RopeMode.NEOX, 1, 1, 0, 0), 1e-7, 1, 1, 0, 0, 5, c1, c01, s1, s01, 5);
    }

    /** x [1, 1, 2, 5] with the same row at positions 0 and 1; the fifth value is past dims. */
    private static double[] rope(RopeMode mode, float... row) {
        GraphBuilder g = new GraphBuilder();
        Tensor x =
                constant(g, Shape.of(1, 1, 2, 5), row[0], row[1], row[2], row[3], 5, row[0], row[1], row[2], row[3], 5);
        Tensor pos = g.constant(HostTensor.ofInts(Shape.of(2), 0, 1));
        return Eval.of(g, g.rope(x, pos, 4, 100, mode));
    }

    @Test
    void attentionWeightsValuesBySoftmaxOfScores() {
        // scores [0, ln 3] -> weights [1/4, 3/4] -> 4/4 + 3·8/4 = 7
        GraphBuilder g = new GraphBuilder();
        Tensor q = constant(g, Shape.of(1, 1, 1, 1), 1);
        Tensor k = constant(g, Shape.of(1, 1, 2, 1), 0, LN3);
        Tensor v = constant(g, Shape.of(1, 1, 2, 1), 4, 8);
        assertValues(Eval.of(g, g.attention(q, k, v, null, 1, false)), 1e-7, 7);
    }

    @Test
    void causalMaskHidesLaterKeysAndFullyMaskedQueriesGiveZeros() {
        GraphBuilder g = new GraphBuilder();
        Tensor q = constant(g, Shape.of(1, 1, 2, 1), 1, 1);
        Tensor k = constant(g, Shape.of(1, 1, 2, 1), 0, LN3);
        Tensor v = constant(g, Shape.of(1, 1, 2, 1), 4, 8);
        assertValues(Eval.of(g, g.attention(q, k, v, null, 1, true)), 1e-7, 4, 7);
        GraphBuilder h = new GraphBuilder();
        Tensor mask = constant(h, Shape.of(2, 2), Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, 0, 0);
        Tensor q2 = constant(h, Shape.of(1, 1, 2, 1), 1, 1);
        Tensor k2 = constant(h, Shape.of(1, 1, 2, 1), 0, LN3);
        Tensor v2 = constant(h, Shape.of(1, 1, 2, 1), 4, 8);
        assertValues(Eval.of(h, h.attention(q2, k2, v2, mask, 1, false)), 1e-7, 0, 7);
    }

    @Test
    void causalMaskIsAlignedToTheEndWhenThereAreMoreKeysThanQueries() {
        // Tq = 2, Tk = 3: query 0 sees keys 0, 1 (scores 0, 0); query 1 sees all (0, 0, ln 2)
        GraphBuilder g = new GraphBuilder();
        Tensor q = constant(g, Shape.of(1, 1, 2, 1), 1, 1);
        Tensor k = constant(g, Shape.of(1, 1, 3, 1), 0, 0, (float) Math.log(2));
        Tensor v = constant(g, Shape.of(1, 1, 3, 1), 4, 8, 16);
        assertValues(Eval.of(g, g.attention(q, k, v, null, 1, true)), 1e-6, 6, 11);
    }

    @Test
    void groupedQueriesShareConsecutiveKvHeads() {
        // 4 query heads over 2 kv heads: heads 0,1 read kv head 0 (value 1), heads 2,3 kv head 1 (value 2)
        GraphBuilder g = new GraphBuilder();
        Tensor q = constant(g, Shape.of(1, 4, 1, 1), 1, 1, 1, 1);
        Tensor k = constant(g, Shape.of(1, 2, 1, 1), 1, 1);
        Tensor v = constant(g, Shape.of(1, 2, 1, 1), 1, 2);
        assertValues(Eval.of(g, g.attention(q, k, v, null, 1, false)), 0, 1, 1, 2, 2);
    }

    @Test
    void lstmStepsWithHandChosenGates() {
        // H = 1, I = 1. x feeds only the g gate (w_ih = [0, 0, 1, 0]); the f gate has bias ln 3
        // (σ = 3/4); h feeds the o gate with weight 1. Step 1 from h0 = 0, c0 = 1, x = 0.5:
        //   i = 1/2, f = 3/4, g = tanh 0.5, o = 1/2: c1 = 3/4 + tanh(0.5)/2, h1 = tanh(c1)/2
        // Step 2, x = 0: g = 0, o = σ(h1): c2 = 3/4·c1, h2 = σ(h1)·tanh(c2)
        GraphBuilder b = new GraphBuilder();
        Tensor x = constant(b, Shape.of(1, 2, 1), 0.5f, 0);
        Tensor wIh = constant(b, Shape.of(4, 1), 0, 0, 1, 0);
        Tensor wHh = constant(b, Shape.of(4, 1), 0, 0, 0, 1);
        Tensor bIh = constant(b, Shape.of(4), 0, LN3, 0, 0);
        Tensor bHh = constant(b, Shape.of(4), 0, 0, 0, 0);
        Tensor h0 = constant(b, Shape.of(1, 1), 0), c0 = constant(b, Shape.of(1, 1), 1);
        double c1 = 0.75 + Math.tanh(0.5) / 2, h1 = Math.tanh(c1) / 2;
        double c2 = 0.75 * c1, h2 = Math.tanh(c2) / (1 + Math.exp(-h1));
        assertValues(Eval.of(b, b.lstm(x, wIh, wHh, bIh, bHh, h0, c0)), 1e-7, h1, h2, c1, c2);
    }

    @Test
    void keyMaskHidesKeysPastTheLengthAndInTheFuture() {
        GraphBuilder g = new GraphBuilder();
        Tensor len = g.input("len", DType.I32, Shape.of(1));
        Tensor plain = g.keyMask(len, 2, 5, false), causal = g.keyMask(len, 2, 5, true);
        Graph graph = g.build(plain, causal);
        double inf = Double.NEGATIVE_INFINITY;
        try (HostTensor three = HostTensor.ofInts(Shape.of(1), 3)) {
            Map<Tensor, double[]> v = ReferenceEvaluator.evaluate(graph, Map.of("len", three));
            assertThat(v.get(plain)).containsExactly(0, 0, 0, inf, inf, 0, 0, 0, inf, inf);
            // queries at positions 1 and 2 of a cache holding 3 keys
            assertThat(v.get(causal)).containsExactly(0, 0, inf, inf, inf, 0, 0, 0, inf, inf);
        }
    }

    @Test
    void keyMaskOfABatchMasksEachElementByItsOwnLength() {
        GraphBuilder g = new GraphBuilder();
        Tensor len = g.input("len", DType.I32, Shape.of(2));
        Tensor plain = g.keyMask(len, 2, 3, false), causal = g.keyMask(len, 2, 3, true);
        assertThat(plain.shape()).isEqualTo(Shape.of(2, 1, 2, 3));
        Graph graph = g.build(plain, causal);
        double inf = Double.NEGATIVE_INFINITY;
        try (HostTensor lengths = HostTensor.ofInts(Shape.of(2), 1, 3)) {
            Map<Tensor, double[]> v = ReferenceEvaluator.evaluate(graph, Map.of("len", lengths));
            assertThat(v.get(plain)).containsExactly(0, inf, inf, 0, inf, inf, 0, 0, 0, 0, 0, 0);
            // element 0 holds one key: its first query (position -1) sees none
            assertThat(v.get(causal)).containsExactly(inf, inf, inf, 0, inf, inf, 0, 0, inf, 0, 0, 0);
        }
    }

    @Test
    void attentionWithAMaskPerBatchElementMasksEachElementByItsOwn() {
        // both elements have keys [0, ln 3] and values [4, 8]; element 0 sees both (7), element 1 only key 0 (4)
        GraphBuilder g = new GraphBuilder();
        Tensor q = constant(g, Shape.of(2, 1, 1, 1), 1, 1);
        Tensor k = constant(g, Shape.of(2, 1, 2, 1), 0, LN3, 0, LN3);
        Tensor v = constant(g, Shape.of(2, 1, 2, 1), 4, 8, 4, 8);
        Tensor mask = constant(g, Shape.of(2, 1, 1, 2), 0, 0, 0, Float.NEGATIVE_INFINITY);
        assertValues(Eval.of(g, g.attention(q, k, v, mask, 1, false)), 1e-7, 7, 4);
    }
}
