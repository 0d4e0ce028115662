package dev.audioengine.backend.cpu.kernels.layout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
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
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * pad, concat, contiguous and cast on the CPU against the reference. These ops only move or
 * round values, so the CPU must match exactly (max |error| 0): casts round with the same rules
 * the reference applies.
 */
class LayoutKernelTest {
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

    static List<Arguments> padCases() {
        List<Arguments> cases = new ArrayList<>();
        for (PadMode mode : PadMode.values()) {
            for (int n : SIZES) for (Layout layout : Layout.values()) cases.add(Arguments.of(mode, n, layout));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} [4, 3, {1}] {2}")
    @MethodSource("padCases")
    void padLastAndOuterAxes(PadMode mode, int n, Layout layout) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(4, 3, n), layout);
            long edge = mode == PadMode.REFLECT ? Math.min(n - 1, 5) : 5; // reflect must stay inside the axis
            long[] before = {1, 0, edge}, after = {0, 2, Math.max(0, edge - 1)};
            if (mode == PadMode.REFLECT) {
                before[0] = 3;
                after[1] = 2;
            }
            c.assertMaxAbs(engine, "pad " + mode, c.g.pad(x, mode, before, after, -2.5f), 0);
        }
    }

    static List<Arguments> concatCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int axis = 0; axis < 3; axis++)
            for (Layout layout : Layout.values()) cases.add(Arguments.of(axis, layout));
        return cases;
    }

    @ParameterizedTest(name = "axis {0} {1}")
    @MethodSource("concatCases")
    void concatAlongEachAxis(int axis, Layout layout) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Shape base = Shape.of(2, 7, 33);
            Tensor a = c.input("a", base.with(axis, 1), layout);
            Tensor b = c.input("b", base, Layout.CONTIGUOUS);
            Tensor d = c.input("d", base.with(axis, 3), layout);
            c.assertMaxAbs(engine, "concat axis " + axis, c.g.concat(axis, a, b, d), 0);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"F32", "F16", "BF16", "I32", "I8"})
    void contiguousOfPermutedAndSlicedViews(DType dtype) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", c.random.of(dtype, Shape.of(5, 7, 33), -100, 100));
            Tensor view = c.g.slice(c.g.permute(x, 2, 0, 1), 0, 1, 33, 3);
            c.assertMaxAbs(engine, "contiguous " + dtype, c.g.contiguous(view), 0);
        }
    }

    /** Permutes that move the last axis put the unit stride on axis 0, 1 or 2 (the tiled path); sizes straddle tiles. */
    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"F32", "F16", "I32", "I8"})
    void contiguousOfPermutesThatMoveTheLastAxis(DType dtype) {
        for (int[] perm : new int[][] {{3, 0, 1, 2}, {0, 3, 1, 2}, {0, 1, 3, 2}, {2, 3, 0, 1}}) {
            try (ReferenceCheck c = new ReferenceCheck()) {
                Tensor x = c.bind("x", c.random.of(dtype, Shape.of(2, 3, 37, 70), -100, 100));
                c.assertMaxAbs(
                        engine,
                        "contiguous " + dtype + " permute " + java.util.Arrays.toString(perm),
                        c.g.contiguous(c.g.permute(x, perm)),
                        0);
            }
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", c.random.of(dtype, Shape.of(1, 33), -100, 100));
            c.assertMaxAbs(engine, "contiguous " + dtype + " [1, 33]ᵀ", c.g.contiguous(c.g.transpose(x, 0, 1)), 0);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"Q8_0", "Q4_0"})
    void contiguousOfQuantizedRowsMovesWholeBlocks(DType dtype) {
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", c.random.of(dtype, Shape.of(3, 5, 64), -2, 2));
            Tensor view = c.g.slice(c.g.permute(x, 1, 0, 2), 0, 1, 5, 2);
            c.assertMaxAbs(engine, "contiguous " + dtype, c.g.cast(c.g.contiguous(view), DType.F32), 0);
        }
    }

    static List<Arguments> castCases() {
        List<Arguments> cases = new ArrayList<>();
        for (DType to : new DType[] {DType.F16, DType.BF16, DType.I32, DType.Q8_0, DType.Q4_0}) {
            for (Layout layout : Layout.values()) cases.add(Arguments.of(to, layout));
        }
        return cases;
    }

    /** F32 → dtype on a strided view, read back as numbers; then the dtype → F32 direction of the same values. */
    @ParameterizedTest(name = "F32 -> {0} {1}")
    @MethodSource("castCases")
    void castBothDirections(DType to, Layout layout) {
        int n = to.isQuantized() ? 96 : 257;
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.input("x", Shape.of(3, n), layout, -300, 300);
            c.assertMaxAbs(engine, "cast F32 -> " + to, c.g.cast(x, to), 0);
        }
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", c.random.of(to, Shape.of(5, n), -300, 300));
            Tensor view = to.isQuantized() ? c.g.slice(x, 0, 1, 5, 2) : c.g.transpose(x, 0, 1);
            c.assertMaxAbs(engine, "cast " + to + " -> F32", c.g.cast(view, DType.F32), 0);
        }
    }

    @Test
    void castRoundsHalfwayAndSpecialValuesLikeTheReference() {
        float[] v = {
            0.5f, 1.5f, 2.5f, -2.5f, -0.5f, Float.NaN, 1e10f, -1e10f, 65520f, 1e-8f, Float.NEGATIVE_INFINITY, 3.999f
        };
        for (DType to : new DType[] {DType.F16, DType.BF16}) {
            try (ReferenceCheck c = new ReferenceCheck()) {
                Tensor x = c.bind("x", HostTensor.ofFloats(Shape.of(v.length), v));
                c.assertMaxAbs(engine, "cast F32 -> " + to, c.g.cast(x, to), 0);
            }
        }
        // I32 is compared as ints: saturated values (±2^31) are not exact as floats
        try (ReferenceCheck c = new ReferenceCheck()) {
            Tensor x = c.bind("x", HostTensor.ofFloats(Shape.of(v.length), v));
            Tensor y = c.g.cast(x, DType.I32);
            double[] ref = c.reference(y);
            int[] expected = new int[ref.length];
            for (int i = 0; i < ref.length; i++) expected[i] = (int) ref[i];
            assertThat(c.runOnCpuInts(engine, y))
                    .as("cast F32 -> I32 of %s", java.util.Arrays.toString(v))
                    .containsExactly(expected)
                    .contains(Integer.MAX_VALUE, Integer.MIN_VALUE, 0, 3, -2);
        }
    }
}
