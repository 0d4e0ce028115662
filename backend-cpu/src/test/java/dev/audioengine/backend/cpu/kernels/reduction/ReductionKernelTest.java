package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.graph.Op.ReduceKind;
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
 * sum, mean, max and argmax along every axis on the CPU against the reference. Bound for sum and
 * mean: NMSE 1e-11 (float accumulation of up to 257 values of both signs cancels; measured
 * ≤ 1e-13). max and argmax select a value, so they must match exactly.
 */
class ReductionKernelTest {
    private static final double F32_SUM = 1e-11;
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

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (ReduceKind kind : ReduceKind.values()) {
            for (int n : SIZES) {
                for (Layout layout : Layout.values()) {
                    for (int axis = 0; axis < 3; axis++) cases.add(Arguments.of(kind, n, layout, axis, axis % 2 == 0));
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} [5, 3, {1}] {2} axis {3} keepDim {4}")
    @MethodSource("cases")
    void reduceAlongAnyAxis(ReduceKind kind, int n, Layout layout, int axis, boolean keepDim) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(5, 3, n), layout, -2, 3);
            Tensor y = c.g.reduce(kind, x, axis, keepDim);
            if (kind == ReduceKind.MAX) c.assertMaxAbs(engine, "max axis " + axis, y, 0);
            else c.assertNmse(engine, kind + " axis " + axis, y, F32_SUM);
        }
    }

    static List<Arguments> argmaxCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int n : SIZES)
            for (Layout layout : Layout.values())
                for (int axis = 0; axis < 3; axis++) cases.add(Arguments.of(n, layout, axis));
        return cases;
    }

    @ParameterizedTest(name = "[4, 3, {0}] {1} axis {2}")
    @MethodSource("argmaxCases")
    void argmaxAlongAnyAxis(int n, Layout layout, int axis) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(4, 3, n), layout, -5, 5);
            c.assertMaxAbs(engine, "argmax axis " + axis, c.g.argmax(x, axis), 0);
        }
    }

    /** Ties pick the first index; NaN counts as the largest; max propagates NaN. */
    @Test
    void tiesAndNaN() {
        float[] v = new float[3 * 20];
        for (int i = 0; i < v.length; i++) v[i] = (i * 7) % 5;
        v[20 + 13] = Float.NaN;
        v[40 + 2] = Float.NaN;
        v[40 + 17] = Float.NaN;
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", HostTensor.ofFloats(Shape.of(3, 20), v));
            c.assertMaxAbs(engine, "argmax ties/NaN", c.g.argmax(x, 1), 0);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", HostTensor.ofFloats(Shape.of(3, 20), v));
            c.assertMaxAbs(engine, "max with NaN", c.g.max(x, 1, false), 0);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", HostTensor.ofFloats(Shape.of(3, 20), v));
            c.assertMaxAbs(engine, "max with NaN along axis 0", c.g.max(x, 0, true), 0);
        }
    }
}
