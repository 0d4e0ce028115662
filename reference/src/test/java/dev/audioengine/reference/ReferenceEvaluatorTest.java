package dev.audioengine.reference;

import static dev.audioengine.reference.Eval.assertValues;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReferenceEvaluatorTest {
    @Test
    void everyNodeIncludingViewsIsMaterializedInLogicalOrder() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(2, 3));
        Tensor t = g.transpose(x, 0, 1);
        Tensor s = g.slice(x, 1, 0, 3, 2);
        Tensor r = g.reshape(g.slice(x, 0, 1, 2), 3);
        Tensor sum = g.add(g.contiguous(t), g.scalar(1));
        Graph graph = g.build(sum, s, r);
        try (HostTensor xv = HostTensor.ofFloats(Shape.of(2, 3), 0, 1, 2, 3, 4, 5)) {
            Map<Tensor, double[]> v = ReferenceEvaluator.evaluate(graph, Map.of("x", xv));
            assertThat(v.keySet()).containsExactlyInAnyOrderElementsOf(graph.nodes());
            assertValues(v.get(x), 0, 0, 1, 2, 3, 4, 5);
            assertValues(v.get(t), 0, 0, 3, 1, 4, 2, 5);
            assertValues(v.get(s), 0, 0, 2, 3, 5);
            assertValues(v.get(r), 0, 3, 4, 5);
            assertValues(v.get(sum), 0, 1, 4, 2, 5, 3, 6);
        }
    }

    @Test
    void leavesOfAnyDtypeAreTheirStoredNumbers() {
        GraphBuilder g = new GraphBuilder();
        Tensor q = g.input("q", DType.Q8_0, Shape.of(32));
        Tensor h = g.constant(HostTensor.convert(DType.F16, Shape.of(1), new float[] {0.1f}));
        float[] v = new float[32];
        for (int i = 0; i < 32; i++) v[i] = i - 16;
        try (HostTensor qv = HostTensor.convert(DType.Q8_0, Shape.of(32), v)) {
            Graph graph = g.build(q, h);
            Map<Tensor, double[]> values = ReferenceEvaluator.evaluate(graph, Map.of("q", qv));
            float[] stored = qv.toFloatArray();
            for (int i = 0; i < 32; i++) assertThat(values.get(q)[i]).isEqualTo(stored[i]);
            assertValues(values.get(h), 0, 0.0999755859375);
        }
    }

    @Test
    void missingOrMisshapenInputsAreNamed() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(2));
        Graph graph = g.build(g.relu(x));
        assertThatThrownBy(() -> ReferenceEvaluator.evaluate(graph, Map.of())).hasMessageContaining("'x'");
        try (HostTensor wrong = HostTensor.ofFloats(Shape.of(3), 1, 2, 3)) {
            assertThatThrownBy(() -> ReferenceEvaluator.evaluate(graph, Map.of("x", wrong)))
                    .hasMessageContaining("F32 [2]");
        }
    }
}
