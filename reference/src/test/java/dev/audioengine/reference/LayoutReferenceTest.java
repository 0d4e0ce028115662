package dev.audioengine.reference;

import static dev.audioengine.reference.Eval.assertValues;
import static dev.audioengine.reference.Eval.constant;
import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import org.junit.jupiter.api.Test;

class LayoutReferenceTest {
    @Test
    void padModesOnOneAxis() {
        assertValues(pad(PadMode.REFLECT, 0), 0, 3, 2, 1, 2, 3, 4, 3);
        assertValues(pad(PadMode.REPLICATE, 0), 0, 1, 1, 1, 2, 3, 4, 4);
        assertValues(pad(PadMode.ZERO, 7), 0, 7, 7, 1, 2, 3, 4, 7);
    }

    private static double[] pad(PadMode mode, float value) {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(4), 1, 2, 3, 4);
        return Eval.of(g, g.pad(x, mode, new long[] {2}, new long[] {1}, value));
    }

    @Test
    void padTwoAxes() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 2), 1, 2, 3, 4);
        assertValues(
                Eval.of(g, g.pad(x, PadMode.ZERO, new long[] {1, 0}, new long[] {0, 1}, 0)),
                0,
                0,
                0,
                0,
                1,
                2,
                0,
                3,
                4,
                0);
        GraphBuilder h = new GraphBuilder();
        Tensor y = constant(h, Shape.of(2, 2), 1, 2, 3, 4);
        assertValues(
                Eval.of(h, h.pad(y, PadMode.REPLICATE, new long[] {1, 1}, new long[] {0, 0}, 0)),
                0,
                1,
                1,
                2,
                1,
                1,
                2,
                3,
                3,
                4);
    }

    @Test
    void concatInterleavesAlongTheAxis() {
        GraphBuilder g = new GraphBuilder();
        Tensor a = constant(g, Shape.of(2, 1), 1, 2);
        Tensor b = constant(g, Shape.of(2, 2), 3, 4, 5, 6);
        assertValues(Eval.of(g, g.concat(1, a, b)), 0, 1, 3, 4, 2, 5, 6);
        GraphBuilder h = new GraphBuilder();
        assertValues(
                Eval.of(h, h.concat(0, constant(h, Shape.of(1, 2), 1, 2), constant(h, Shape.of(1, 2), 3, 4))),
                0,
                1,
                2,
                3,
                4);
    }

    @Test
    void contiguousMaterializesAPermutedView() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = constant(g, Shape.of(2, 3), 0, 1, 2, 3, 4, 5);
        assertValues(Eval.of(g, g.contiguous(g.transpose(x, 0, 1))), 0, 0, 3, 1, 4, 2, 5);
    }

    @Test
    void castRoundsToTheTargetFormat() {
        assertValues(cast(DType.F16, 1f / 3, 65520f, 1e-8f), 0, 0.333251953125, Double.POSITIVE_INFINITY, 0);
        assertValues(cast(DType.BF16, 1f / 3), 0, 0.333984375);
        assertValues(cast(DType.I32, 2.5f, -2.5f, 1.4f, Float.NaN), 0, 3, -2, 1, 0);
    }

    @Test
    void castToBlockTypesQuantizesEachBlock() {
        long seed = Seeds.fresh();
        float[] v = new RandomTensors(seed).uniform(64, -2, 2);
        for (DType q : new DType[] {DType.Q8_0, DType.Q4_0}) {
            double[] got = cast(q, v);
            float[] expected;
            try (HostTensor t = HostTensor.convert(q, Shape.of(64), v)) {
                expected = t.toFloatArray();
            }
            for (int i = 0; i < 64; i++)
                assertThat(got[i])
                        .as("%s element %d, %s", q, i, Seeds.describe(seed))
                        .isEqualTo(expected[i]);
            // Q8_0 rounds to half a step of amax/127; Q4_0's steps are amax/8 and the value opposite
            // the block's extreme may be clamped a whole step (nibble 16 -> 15)
            double bound = q == DType.Q8_0 ? 0.51 * 2 / 127 + 1e-3 : 2.0 / 8 + 1e-3;
            for (int i = 0; i < 64; i++) assertThat(Math.abs(got[i] - v[i])).isLessThanOrEqualTo(bound);
        }
    }

    private static double[] cast(DType to, float... xs) {
        GraphBuilder g = new GraphBuilder();
        return Eval.of(g, g.cast(constant(g, Shape.of(xs.length), xs), to));
    }
}
