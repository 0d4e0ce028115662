package dev.audioengine.reference;

import static dev.audioengine.reference.Eval.assertValues;
import static dev.audioengine.reference.Eval.constant;
import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

class ReductionReferenceTest {
    private static final float NEG_INF = Float.NEGATIVE_INFINITY;

    @Test
    void softmaxOfOneTwoThree() {
        GraphBuilder g = new GraphBuilder();
        assertValues(
                Eval.of(g, g.softmax(constant(g, Shape.of(3), 1, 2, 3))),
                1e-16,
                0.09003057317038046,
                0.24472847105479764,
                0.6652409557748219);
    }

    @Test
    void softmaxScaleAndBroadcastMaskWithMinusInfinity() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 3), 1, 2, 3, 1, 2, 3);
        Tensor mask = constant(g, Shape.of(3), 0, NEG_INF, 0);
        // z = [2, -inf, 6]: [1/(1+e^4), 0, e^4/(1+e^4)]
        assertValues(
                Eval.of(g, g.softmax(x, mask, 2)),
                1e-16,
                0.01798620996209156,
                0,
                0.9820137900379085,
                0.01798620996209156,
                0,
                0.9820137900379085);
    }

    @Test
    void fullyMaskedRowIsZeros() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 2), 1, 2, 3, 4);
        Tensor mask = constant(g, Shape.of(2, 1), NEG_INF, 0);
        assertValues(Eval.of(g, g.softmax(x, mask, 1)), 1e-16, 0, 0, 0.2689414213699951, 0.7310585786300049);
    }

    @Test
    void sumMeanMaxAlongAnyAxis() {
        assertValues(reduce(0, 0, false), 0, 5, 7, 9);
        assertValues(reduce(1, 1, false), 0, 2, 5);
        GraphBuilder g = new GraphBuilder();
        Tensor m = g.max(constant(g, Shape.of(2, 3), 1, 9, 3, 4, 5, -6), 1, true);
        assertThat(m.shape()).isEqualTo(Shape.of(2, 1));
        assertValues(Eval.of(g, m), 0, 9, 5);
        GraphBuilder h = new GraphBuilder();
        assertValues(Eval.of(h, h.max(constant(h, Shape.of(3), 1, Float.NaN, 3), 0, false)), 0, Double.NaN);
    }

    private static double[] reduce(int kind, int axis, boolean keep) {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
        return Eval.of(g, kind == 0 ? g.sum(x, axis, keep) : g.mean(x, axis, keep));
    }

    @Test
    void argmaxTakesTheFirstMaximumAndNaNWins() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(3, 3), 1, 7, 7, 2, Float.NaN, 9, 0, -1, 0);
        assertValues(Eval.of(g, g.argmax(x, 1)), 0, 1, 1, 0);
        GraphBuilder h = new GraphBuilder();
        Tensor y = constant(h, Shape.of(2, 2), 1, 5, 3, 2);
        assertValues(Eval.of(h, h.argmax(y, 0)), 0, 1, 0);
    }

    // [1, 2, 3, 4]: mean 2.5, biased variance 1.25, 1/sqrt(1.25) = 0.894427190999916
    private static final double A = 1.5 * 0.894427190999916, B = 0.5 * 0.894427190999916;

    @Test
    void layerNormOfAKnownVector() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 4), 1, 2, 3, 4, 4, 3, 2, 1);
        assertValues(Eval.of(g, g.layerNorm(x, null, null, 0)), 1e-14, -A, -B, B, A, A, B, -B, -A);
        GraphBuilder h = new GraphBuilder();
        Tensor y = constant(h, Shape.of(4), 1, 2, 3, 4);
        Tensor gamma = constant(h, Shape.of(4), 1, 2, 1, 1), beta = constant(h, Shape.of(4), 0, 0, 1, 0);
        assertValues(Eval.of(h, h.layerNorm(y, gamma, beta, 0)), 1e-14, -A, -2 * B, B + 1, A);
    }

    @Test
    void rmsNormOfAKnownVector() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2), 3, 4);
        // mean square 12.5, rms 3.5355339059327378
        assertValues(
                Eval.of(g, g.rmsNorm(x, constant(g, Shape.of(2), 1, 10), 0)),
                1e-14,
                0.848528137423857,
                11.31370849898476);
    }

    @Test
    void groupNormPoolsChannelsOfAGroup() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(1, 4, 2), 1, 2, 3, 4, 10, 10, 10, 10);
        Tensor gamma = constant(g, Shape.of(4), 1, 1, 1, 2), beta = constant(g, Shape.of(4), 0, 0, 0, 5);
        // group 0 = channels 0,1 = [1,2,3,4]; group 1 is constant so it normalizes to 0, then beta
        assertValues(Eval.of(g, g.groupNorm(x, 2, gamma, beta, 1e-5f)), 1e-5, -A, -B, B, A, 0, 0, 5, 5);
    }
}
