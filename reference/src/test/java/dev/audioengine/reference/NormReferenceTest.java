package dev.audioengine.reference;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

import static dev.audioengine.reference.Eval.assertValues;
import static dev.audioengine.reference.Eval.constant;

class NormReferenceTest {
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
        assertValues(Eval.of(g, g.rmsNorm(x, constant(g, Shape.of(2), 1, 10), 0)), 1e-14, 0.848528137423857, 11.31370849898476);
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
