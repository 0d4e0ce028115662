package dev.audioengine.conformance;

import static dev.audioengine.conformance.CaseDraft.dims;

import dev.audioengine.api.graph.Op.BinaryKind;
import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Binary ops with broadcasting, unary activations, scale and snake. */
final class ElementwiseCases {
    private ElementwiseCases() {}

    /** Unary ops whose value at NaN, ±Inf and 0 IEEE arithmetic fixes, so every backend must agree there. */
    private static final Set<UnaryKind> IEEE_DEFINED = EnumSet.of(
            UnaryKind.NEG,
            UnaryKind.ABS,
            UnaryKind.SQR,
            UnaryKind.EXP,
            UnaryKind.TANH,
            UnaryKind.SIGMOID,
            UnaryKind.SQRT,
            UnaryKind.LOG,
            UnaryKind.SIN,
            UnaryKind.COS,
            UnaryKind.LEAKY_RELU);

    static void addTo(List<ConformanceCase> out) {
        for (BinaryKind k : BinaryKind.values()) binary(out, k);
        for (UnaryKind k : UnaryKind.values()) unary(out, k);
        scale(out);
        snake(out);
    }

    private static Values lhs(BinaryKind k) {
        return k == BinaryKind.POW ? Values.uniform(0.1, 3) : Values.normal();
    }

    /** Divisors and exponents kept where the result is well conditioned (|b| >= 0.5, exponents in ±2). */
    private static Values rhs(BinaryKind k) {
        return switch (k) {
            case DIV -> Values.uniform(0.5, 2);
            case POW -> Values.uniform(-2, 2);
            default -> Values.normal();
        };
    }

    private static void binary(List<ConformanceCase> out, BinaryKind k) {
        long[][][] shapes = {
            {{1}, {1}},
            {{7}, {7}},
            {{33, 257}, {33, 257}},
            {{4, 1, 33}, {5, 1}},
            {{2, 3, 1025}, {}},
            {{3, 1, 5, 1}, {1, 4, 1, 6}},
            {{1, 1025}, {1025}},
        };
        for (long[][] s : shapes) {
            CaseDraft d = new CaseDraft();
            Tensor a = d.f32("a", lhs(k), s[0]), b = d.f32("b", rhs(k), s[1]);
            out.add(d.done(d.g.binary(k, a, b), "f32", "a" + dims(s[0]) + " b" + dims(s[1]), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor a = d.transposed("a", DType.F32, lhs(k), 17, 65);
        Tensor b = d.f32("b", rhs(k), 65);
        out.add(d.done(d.g.binary(k, a, b), "f32", "a[17,65] transposed view, b[65]", Bound.F32));

        d = new CaseDraft();
        a = d.f32("a", lhs(k), 3, 2, 32);
        b = d.g.slice(d.f32("b", rhs(k), 2, 64), 1, 1, 64, 2);
        out.add(d.done(d.g.binary(k, a, b), "f32", "a[3,2,32] b=[2,64][:,1::2]", Bound.F32));

        // a last axis of one element: log-mel's real and imaginary parts of [.., frames, 2], and a column broadcast
        d = new CaseDraft();
        Tensor pairs = d.f32("a", lhs(k), 2, 5, 9, 2), other = d.f32("b", rhs(k), 2, 5, 9, 2);
        a = d.g.slice(pairs, 3, 0, 1);
        b = d.g.slice(other, 3, 1, 2);
        out.add(d.done(d.g.binary(k, a, b), "f32", "a=[2,5,9,2][...,0:1] b=[2,5,9,2][...,1:2]", Bound.F32));
        d = new CaseDraft();
        a = d.f32("a", lhs(k), 3, 37, 1);
        b = d.f32("b", rhs(k), 3, 1, 1);
        out.add(d.done(d.g.binary(k, a, b), "f32", "a[3,37,1] b[3,1,1]", Bound.F32));

        d = new CaseDraft();
        a = d.g.slice(d.f32("a", lhs(k), 6, 33), 0, 1, 6);
        b = d.g.reshape(d.f32("b", rhs(k), 165), 5, 33);
        out.add(d.done(d.g.binary(k, a, b), "f32", "a=[6,33][1:6] offset view, b=[165] reshaped", Bound.F32));

        if (k != BinaryKind.POW) {
            d = new CaseDraft();
            a = d.f32("a", new Values.WithSpecials(), 257);
            b = d.f32("b", new Values.WithSpecials(), 257);
            out.add(d.done(d.g.binary(k, a, b), "f32", "a[257] b[257] with NaN/Inf/0", Bound.F32));
        }
    }

    private static Values domain(UnaryKind k) {
        return switch (k) {
            case LOG, SQRT -> Values.uniform(0.01, 10);
            case EXP -> Values.uniform(-20, 20);
            case SIN, COS -> Values.uniform(-10, 10);
            default -> new Values.Normal(3);
        };
    }

    /** Activations whose negative tail is tiny but not zero: a formula with 1 + f(x) cancellation loses it. */
    private static final Set<UnaryKind> SMALL_NEGATIVE_TAIL =
            EnumSet.of(UnaryKind.GELU_ERF, UnaryKind.GELU_TANH, UnaryKind.SILU, UnaryKind.SIGMOID, UnaryKind.ELU);

    private static void unary(List<ConformanceCase> out, UnaryKind k) {
        // neither ELU's default nor a common leaky slope (0.01), so a kernel ignoring alpha or hard-coding one fails
        float alpha = switch (k) {
            case ELU -> 0.7f;
            case LEAKY_RELU -> 0.3f;
            default -> 1f;
        };
        long[][] shapes = {{1}, {1025}, {2, 3, 33, 7}};
        for (long[] s : shapes) {
            CaseDraft d = new CaseDraft();
            out.add(d.done(d.g.unary(k, d.f32("x", domain(k), s), alpha), "f32", "x" + dims(s), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        out.add(d.done(
                d.g.unary(k, d.transposed("x", DType.F32, domain(k), 3, 257), alpha),
                "f32",
                "x[3,257] transposed view",
                Bound.F32));
        if (SMALL_NEGATIVE_TAIL.contains(k)) {
            d = new CaseDraft();
            out.add(d.done(
                    d.g.unary(k, d.f32("x", Values.uniform(-6, -4), 257), alpha),
                    "f32",
                    "x[257] in [-6,-4) (relative accuracy in the tail)",
                    Bound.F32));
        }
        if (IEEE_DEFINED.contains(k)) {
            d = new CaseDraft();
            out.add(d.done(
                    d.g.unary(k, d.f32("x", new Values.WithSpecials(), 257), alpha),
                    "f32",
                    "x[257] with NaN/Inf/0",
                    Bound.F32));
        }
    }

    private static void scale(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        out.add(d.done(d.g.scale(d.f32("x", 1025), 0.37f, -1.5f), "f32", "x[1025] *0.37 -1.5", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.scale(d.transposed("x", 33, 65), -2f, 0f), "f32", "x[33,65] transposed view *-2", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.scale(d.f32("x", 2, 3, 5, 7), 1f, 0.25f), "f32", "x[2,3,5,7] +0.25", Bound.F32));
    }

    private static void snake(List<ConformanceCase> out) {
        long[][] shapes = {{1, 1, 1}, {2, 7, 33}, {1, 33, 1025}};
        for (long[] s : shapes) {
            CaseDraft d = new CaseDraft();
            Tensor x = d.f32("x", new Values.Normal(2), s), alpha = d.f32("alpha", Values.uniform(0.1, 2), s[1]);
            out.add(d.done(d.g.snake(x, alpha), "f32", "x" + dims(s), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor x = d.permuted("x", new int[] {0, 2, 1}, 2, 9, 65), alpha = d.f32("alpha", Values.uniform(0.1, 2), 9);
        out.add(d.done(d.g.snake(x, alpha), "f32", "x[2,9,65] stored [B,T,C]", Bound.F32));
    }
}
