package dev.audioengine.reference;

import static dev.audioengine.reference.Eval.assertValues;
import static dev.audioengine.reference.Eval.constant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

class ElementwiseReferenceTest {
    @Test
    void erfMatchesPublishedTablesOnBothSidesOfTheSeriesFractionSwitch() {
        assertThat(Erf.erf(0)).isEqualTo(0);
        assertThat(Erf.erf(0.5)).isCloseTo(0.5204998778130465, within(1e-15));
        assertThat(Erf.erf(1)).isCloseTo(0.8427007929497149, within(1e-15));
        assertThat(Erf.erf(-2)).isCloseTo(-0.9953222650189527, within(1e-15));
        assertThat(Erf.erfc(3)).isCloseTo(2.209049699858544e-05, within(1e-18));
        assertThat(Erf.erfc(4)).isCloseTo(1.541725790028002e-08, within(1e-21));
        // just below the switch (series) and at it (continued fraction): erf(3) − 1e-7 · erf'(3)
        assertThat(Erf.erf(3)).isCloseTo(0.9999779095030014, within(1e-15));
        assertThat(Erf.erf(2.9999999))
                .isCloseTo(0.9999779095030014 - 1e-7 * 2 / Math.sqrt(Math.PI) * Math.exp(-9), within(1e-15));
        assertThat(Erf.erf(Double.POSITIVE_INFINITY)).isEqualTo(1);
        assertThat(Erf.erf(Double.NaN)).isNaN();
    }

    @Test
    void broadcastBinaryOps() {
        GraphBuilder g = new GraphBuilder();
        Tensor a = constant(g, Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
        Tensor b = constant(g, Shape.of(3), 10, 20, 30);
        assertValues(Eval.of(g, g.sub(a, b)), 0, -9, -18, -27, -6, -15, -24);
        GraphBuilder h = new GraphBuilder();
        Tensor c = constant(h, Shape.of(2, 1), 2, 3);
        Tensor d = constant(h, Shape.of(1, 3), 0, 1, 2);
        assertValues(Eval.of(h, h.pow(c, d)), 0, 1, 2, 4, 1, 3, 9);
        GraphBuilder k = new GraphBuilder();
        Tensor e = constant(k, Shape.of(2, 3), -1, 5, Float.NaN, 4, -7, 0);
        Tensor f = constant(k, Shape.of(3), 0, 2, 1);
        assertValues(Eval.of(k, k.maximum(e, f)), 0, 0, 5, Double.NaN, 4, 2, 1);
    }

    @Test
    void activationsAtHandComputedPoints() {
        assertValues(unary(UnaryKind.GELU_ERF, 1f, 1, -1, 0), 1e-15, 0.8413447460685429, -0.15865525393145707, 0);
        assertValues(unary(UnaryKind.GELU_TANH, 1f, 1), 1e-7, 0.84119199);
        assertValues(unary(UnaryKind.SILU, 1f, 1, 0), 1e-15, 0.7310585786300049, 0);
        assertValues(unary(UnaryKind.SIGMOID, 1f, 0, -800, 800), 0, 0.5, 0, 1);
        assertValues(unary(UnaryKind.ELU, 0.5f, -1, 2), 1e-15, -0.31606027941427883, 2);
        assertValues(unary(UnaryKind.RELU, 1f, -3, 3, Float.NaN), 0, 0, 3, Double.NaN);
        assertValues(unary(UnaryKind.SQR, 1f, -3), 0, 9);
        assertValues(unary(UnaryKind.ABS, 1f, -3), 0, 3);
        assertValues(unary(UnaryKind.LEAKY_RELU, 0.25f, -3, 3, 0, Float.NaN), 0, -0.75, 3, 0, Double.NaN);
    }

    /**
     * GELU (erf) deep in the negative tail, to 1e-12 relative: 1 + erf(x/√2) cancels there (at x = -8 it keeps one
     * digit, from -8.5 on it is 0), so the reference must take erfc. Values from Python's math.erfc.
     */
    @Test
    void geluErfKeepsItsNegativeTail() {
        double[] xs = {-6, -8, -10, -13};
        double[] expected = {
            -5.919525870226207e-09, -4.9767684594174555e-15, -7.619853024160593e-23, -7.952313719414897e-38
        };
        double[] actual = unary(UnaryKind.GELU_ERF, 1f, -6, -8, -10, -13);
        for (int i = 0; i < xs.length; i++) {
            assertThat(actual[i] / expected[i]).as("GELU_ERF(%s)", xs[i]).isCloseTo(1, within(1e-12));
        }
    }

    @Test
    void domainErrorsGiveNaNAndInfinity() {
        assertValues(unary(UnaryKind.LOG, 1f, -1, 0, 1), 0, Double.NaN, Double.NEGATIVE_INFINITY, 0);
        assertValues(unary(UnaryKind.SQRT, 1f, -4, 4), 0, Double.NaN, 2);
        assertValues(unary(UnaryKind.EXP, 1f, 1000, 0), 0, Double.POSITIVE_INFINITY, 1);
    }

    @Test
    void scaleAndSnake() {
        GraphBuilder g = new GraphBuilder();
        assertValues(Eval.of(g, g.scale(constant(g, Shape.of(2), 1, -2), 3, 0.5f)), 0, 3.5, -5.5);
        GraphBuilder h = new GraphBuilder();
        Tensor x = constant(h, Shape.of(1, 2, 2), 1, 0, 1, 2);
        Tensor alpha = constant(h, Shape.of(2), 0.5f, 1);
        // sin²(0.5) = (1 − cos 1)/2 = 0.22984884706593; / (0.5 + 1e-9)
        // sin²(1) = 0.70807341827357, sin²(2) = 0.82682181043181 (divided by 1 + 1e-9)
        assertValues(Eval.of(h, h.snake(x, alpha)), 1e-8, 1.4596976941, 0, 1.7080734183, 2.8268218104);
    }

    private static double[] unary(UnaryKind kind, float alpha, float... xs) {
        GraphBuilder g = new GraphBuilder();
        return Eval.of(g, g.unary(kind, constant(g, Shape.of(xs.length), xs), alpha));
    }
}
