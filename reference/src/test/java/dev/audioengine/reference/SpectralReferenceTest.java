package dev.audioengine.reference;

import static dev.audioengine.reference.Eval.assertValues;
import static dev.audioengine.reference.Eval.constant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import org.junit.jupiter.api.Test;

class SpectralReferenceTest {
    @Test
    void fourPointDft() {
        // X[k] = Σ x_n e^{-2πikn/4} of [1, 2, 3, 4]: 10, -2+2i, -2
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(1, 4), 1, 2, 3, 4);
        Tensor w = constant(g, Shape.of(4), 1, 1, 1, 1);
        assertValues(Eval.of(g, g.stft(x, w, 4, 4, false)), 1e-13, 10, 0, -2, 2, -2, 0);
    }

    @Test
    void centeredStftReflectPads() {
        // x = [1, 2, 3, 4, 5], n_fft 4, hop 4: padded [3, 2, 1, 2, 3, 4, 5, 4, 3]; frames at 0 and 4;
        // DC bins are the frame sums 8 and 16
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(1, 5), 1, 2, 3, 4, 5);
        Tensor spec = g.stft(x, constant(g, Shape.of(4), 1, 1, 1, 1), 4, 4, true);
        assertThat(spec.shape()).isEqualTo(Shape.of(1, 3, 2, 2));
        double[] s = Eval.of(g, spec);
        assertThat(s[0]).isCloseTo(8, within(1e-13));
        assertThat(s[2]).isCloseTo(16, within(1e-13));
    }

    @Test
    void istftInvertsStft() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        for (int nFft : new int[] {16, 15}) {
            int hop = 4, len = 101;
            float[] window = new float[nFft];
            for (int i = 0; i < nFft; i++) window[i] = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / nFft));
            float[] xv = r.uniform(2 * len, -1, 1);
            GraphBuilder g = new GraphBuilder();
            Tensor w = constant(g, Shape.of(nFft), window);
            Tensor spec = g.stft(constant(g, Shape.of(2, len), xv), w, nFft, hop, true);
            long kept = nFft + hop * (spec.dim(2) - 1) - 2L * (nFft / 2); // the last partial hop is not recoverable
            Tensor back = g.istft(spec, w, nFft, hop, true, kept);
            double[] y = Eval.of(g, back);
            assertThat(kept).isGreaterThan(len - hop);
            for (int i = 0; i < y.length; i++) {
                int bi = i / (int) kept, t = i % (int) kept;
                assertThat(y[i])
                        .as("n_fft %d sample %d, %s", nFft, i, Seeds.describe(seed))
                        .isCloseTo(xv[bi * len + t], within(1e-12));
            }
        }
    }

    @Test
    void istftRefusesAWindowThatCannotBeInverted() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(1, 16), new float[16]);
        Tensor w = constant(g, Shape.of(4), 0, 1, 1, 0);
        Tensor back = g.istft(g.stft(x, w, 4, 4, false), w, 4, 4, false, 16);
        assertThatThrownBy(() -> Eval.of(g, back)).hasMessageContaining("NOLA");
    }

    @Test
    void magnitudeOfComplexPairs() {
        GraphBuilder g = new GraphBuilder();
        assertValues(Eval.of(g, g.magnitude(constant(g, Shape.of(2, 2), 3, 4, -5, 12))), 0, 5, 13);
    }
}
