package dev.audioengine.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Map;

/** Shorthands for the hand-computed reference tests. */
final class Eval {
    private Eval() {}

    static double[] of(GraphBuilder g, Tensor out, Map<String, HostTensor> inputs) {
        return ReferenceEvaluator.evaluate(g.build(out), inputs, out);
    }

    static double[] of(GraphBuilder g, Tensor out) {
        return of(g, out, Map.of());
    }

    static Tensor constant(GraphBuilder g, Shape shape, float... values) {
        return g.constant(HostTensor.ofFloats(shape, values));
    }

    static void assertValues(double[] actual, double tolerance, double... expected) {
        assertThat(actual).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (Double.isNaN(expected[i])) {
                assertThat(actual[i]).as("element %d", i).isNaN();
            } else if (Double.isInfinite(expected[i])) {
                assertThat(actual[i]).as("element %d", i).isEqualTo(expected[i]);
            } else {
                assertThat(actual[i]).as("element %d", i).isCloseTo(expected[i], within(tolerance));
            }
        }
    }
}
