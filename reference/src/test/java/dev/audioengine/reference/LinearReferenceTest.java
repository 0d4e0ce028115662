package dev.audioengine.reference;

import static dev.audioengine.reference.Eval.assertValues;
import static dev.audioengine.reference.Eval.constant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import org.junit.jupiter.api.Test;

class LinearReferenceTest {
    @Test
    void matmulIsXTimesWTransposed() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
        Tensor w = constant(g, Shape.of(2, 3), 1, 0, -1, 2, 1, 0);
        assertValues(Eval.of(g, g.matmul(x, w)), 0, -2, 4, -2, 13);
    }

    @Test
    void matmulBroadcastsBatchAndReadsF16Weights() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 1, 2), 1, 2, 3, 4);
        Tensor w = g.constant(HostTensor.convert(DType.F16, Shape.of(2, 2), new float[] {1, 0, 0.1f, 1}));
        double tenth = 0.0999755859375; // 0.1 in half precision
        assertValues(Eval.of(g, g.matmul(x, w)), 1e-15, 1, tenth + 2, 3, 3 * tenth + 4);
    }

    @Test
    void conv1dStridePaddingBias() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(1, 1, 5), 1, 2, 3, 4, 5);
        Tensor w = constant(g, Shape.of(1, 1, 3), 1, 0, -1);
        Tensor b = constant(g, Shape.of(1), 10);
        // windows [0,1,2], [2,3,4], [4,5,0] against [1, 0, -1]
        assertValues(Eval.of(g, g.conv1d(x, w, b, 2, 1, 1, 1)), 0, 8, 8, 14);
    }

    @Test
    void conv1dDilationAndGroups() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(1, 2, 4), 1, 2, 3, 4, 1, 1, 1, 1);
        Tensor w = constant(g, Shape.of(2, 1, 2), 1, 1, 2, -1);
        // channel 0: x0[t] + x0[t+2]; channel 1: 2·x1[t] − x1[t+2]
        assertValues(Eval.of(g, g.conv1d(x, w, null, 1, 0, 2, 2)), 0, 4, 6, 1, 1);
    }

    @Test
    void convTranspose1dScattersEachSample() {
        assertValues(convT(0, 0), 0, 1, 10, 102, 20, 200);
        assertValues(convT(1, 0), 0, 10, 102, 20);
        assertValues(convT(1, 1), 0, 10, 102, 20, 200);
    }

    private static double[] convT(int padding, int outputPadding) {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(1, 1, 2), 1, 2);
        Tensor w = constant(g, Shape.of(1, 1, 3), 1, 10, 100);
        return Eval.of(g, g.convTranspose1d(x, w, null, 2, padding, outputPadding, 1, 1));
    }

    /** ⟨conv1d(x, w), y⟩ = ⟨x, conv_transpose1d(y, w)⟩: the transpose really is conv1d's adjoint. */
    @Test
    void convTransposeIsTheAdjointOfConv() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        int stride = 3, padding = 2, dilation = 2, groups = 2, k = 3, t = 23;
        float[] xv = r.uniform(2 * 4 * t, -1, 1), wv = r.uniform(6 * 2 * k, -1, 1);
        GraphBuilder g = new GraphBuilder();
        Tensor conv = g.conv1d(
                constant(g, Shape.of(2, 4, t), xv),
                constant(g, Shape.of(6, 2, k), wv),
                null,
                stride,
                padding,
                dilation,
                groups);
        double[] cx = Eval.of(g, conv);
        long tout = conv.dim(2);
        // conv_transpose with w [Cin'=6, Cout'/groups=2, k] maps 6 channels back to 4; output_padding restores t
        long plain = (tout - 1) * stride - 2L * padding + dilation * (k - 1) + 1;
        float[] yv = r.uniform((int) (2 * 6 * tout), -1, 1);
        GraphBuilder h = new GraphBuilder();
        Tensor back = h.convTranspose1d(
                constant(h, Shape.of(2, 6, tout), yv),
                constant(h, Shape.of(6, 2, k), wv),
                null,
                stride,
                padding,
                (int) (t - plain),
                dilation,
                groups);
        assertThat(back.dim(2)).isEqualTo(t);
        double[] ty = Eval.of(h, back);
        double lhs = 0, rhs = 0;
        for (int i = 0; i < cx.length; i++) lhs += cx[i] * yv[i];
        for (int i = 0; i < ty.length; i++) rhs += xv[i] * ty[i];
        assertThat(lhs).as(Seeds.describe(seed)).isCloseTo(rhs, within(1e-12));
    }
}
