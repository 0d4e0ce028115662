package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.ReferenceCheck;
import dev.audioengine.backend.cpu.kernels.ReferenceCheck.Layout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * layer_norm, rms_norm, group_norm and softmax on the CPU against the reference. Bound: NMSE
 * 1e-12. These accumulate sums in float over up to a few thousand values (relative error
 * ~n·2^-24 in the statistics); measured NMSE is at most ~3e-14, a wrong eps, a missing gamma or an
 * off-by-one row fails by orders of magnitude.
 */
class NormKernelTest {
    private static final double F32_NORM = 1e-12;
    private static final int[] SIZES = {1, 7, 33, 257};
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

    static List<Arguments> rowCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int n : SIZES) for (Layout layout : Layout.values()) cases.add(Arguments.of(n, layout));
        return cases;
    }

    @ParameterizedTest(name = "[3, 5, {0}] {1}")
    @MethodSource("rowCases")
    void layerNormWithAndWithoutAffine(int n, Layout layout) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(3, 5, n), layout, -3, 5);
            Tensor gamma = c.input("gamma", Shape.of(n), Layout.STEPPED, 0.5f, 2);
            Tensor beta = c.constant(Shape.of(n), -1, 1);
            c.assertNmse(engine, "layer_norm", c.g.layerNorm(x, gamma, beta, 1e-5f), F32_NORM);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(3, 5, n), layout, -3, 5);
            c.assertNmse(engine, "layer_norm (no affine)", c.g.layerNorm(x, null, null, 1e-3f), F32_NORM);
        }
    }

    /**
     * Values 1000 ± 0.01: a mean rounded to float is off by up to 3e-5, i.e. 0.3% of the spread;
     * the kernel must recover that rounding (corrected two-pass) to stay within the bound.
     */
    @ParameterizedTest(name = "[3, 5, {0}] {1}")
    @MethodSource("rowCases")
    void normsOfValuesFarFromZero(int n, Layout layout) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(3, 5, n), layout, 999.99f, 1000.01f);
            c.assertNmse(engine, "layer_norm near 1000", c.g.layerNorm(x, null, null, 1e-12f), F32_NORM);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(3, 4, n), layout, 999.99f, 1000.01f);
            c.assertNmse(engine, "group_norm near 1000", c.g.groupNorm(x, 2, null, null, 1e-12f), F32_NORM);
        }
    }

    @ParameterizedTest(name = "[3, 5, {0}] {1}")
    @MethodSource("rowCases")
    void rmsNorm(int n, Layout layout) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(3, 5, n), layout, -3, 5);
            Tensor gamma = c.constant(Shape.of(n), 0.5f, 2);
            c.assertNmse(engine, "rms_norm", c.g.rmsNorm(x, gamma, 1e-6f), F32_NORM);
        }
    }

    static List<Arguments> groupCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int t : SIZES) for (Layout layout : Layout.values()) cases.add(Arguments.of(t, layout));
        return cases;
    }

    @ParameterizedTest(name = "[2, 6, {0}] {1}")
    @MethodSource("groupCases")
    void groupNorm(int t, Layout layout) {
        for (int groups : new int[] {1, 3, 6}) {
            try (ReferenceCheck c = new ReferenceCheck()) {
                Tensor x = c.input("x", Shape.of(2, 6, t), layout, -2, 4);
                Tensor gamma = c.constant(Shape.of(6), 0.5f, 2), beta = c.constant(Shape.of(6), -1, 1);
                c.assertNmse(
                        engine, "group_norm groups=" + groups, c.g.groupNorm(x, groups, gamma, beta, 1e-5f), F32_NORM);
            }
        }
    }

    @Test
    void groupNormOfRankTwoAndFour() {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(3, 8), Layout.TRANSPOSED);
            c.assertNmse(engine, "group_norm [3, 8]", c.g.groupNorm(x, 4, null, null, 1e-5f), F32_NORM);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(2, 4, 3, 7), Layout.STEPPED);
            c.assertNmse(engine, "group_norm [2, 4, 3, 7]", c.g.groupNorm(x, 2, null, null, 1e-5f), F32_NORM);
        }
    }

    @ParameterizedTest(name = "[2, 3, {0}] {1}")
    @MethodSource("rowCases")
    void softmaxWithScaleAndBroadcastMask(int n, Layout layout) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(2, 3, n), layout, -8, 8);
            c.assertNmse(engine, "softmax", c.g.softmax(x), F32_NORM);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(2, 3, n), layout, -8, 8);
            Tensor mask = c.input("mask", Shape.of(3, n), Layout.CONTIGUOUS, -4, 0);
            c.assertNmse(engine, "softmax masked", c.g.softmax(x, mask, 0.37f), F32_NORM);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(2, 3, n), layout, -8, 8);
            Tensor mask =
                    c.input("mask", Shape.of(2, 1, 1), Layout.CONTIGUOUS, -4, 4); // one value per batch: stride-0 rows
            c.assertNmse(engine, "softmax scalar-row mask", c.g.softmax(x, mask, 2f), F32_NORM);
        }
    }

    /** A causal -inf mask, one fully masked row (zeros by definition) and a NaN row (all NaN). */
    @Test
    void softmaxMinusInfinityRows() {
        int n = 37;
        float[] mask = new float[4 * n];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < n; j++) mask[i * n + j] = (i == 0 || j > i * 10) ? Float.NEGATIVE_INFINITY : 0;
        try (ReferenceCheck c = new ReferenceCheck()) {
            float[] xv = c.random.uniform(4 * n, -3, 3);
            xv[3 * n + 5] = Float.NaN;
            Tensor x = c.bind("x", HostTensor.ofFloats(Shape.of(4, n), xv));
            Tensor m = c.bind("mask", HostTensor.ofFloats(Shape.of(4, n), mask));
            c.assertNmse(engine, "softmax -inf rows", c.g.softmax(x, m, 1f), F32_NORM);
        }
    }
}
