package dev.audioengine.conformance;

import static dev.audioengine.conformance.CaseDraft.dims;

import dev.audioengine.api.graph.Op.ReduceKind;
import dev.audioengine.api.graph.Tensor;
import java.util.List;

/** The reduction family: layer_norm, rms_norm, group_norm, softmax (scaled, masked), reductions and argmax. */
final class ReductionCases {
    private ReductionCases() {}

    static void addTo(List<ConformanceCase> out) {
        layerNorm(out);
        rmsNorm(out);
        groupNorm(out);
        softmax(out);
        for (ReduceKind k : ReduceKind.values()) reduce(out, k);
        argmax(out);
    }

    private static void layerNorm(List<ConformanceCase> out) {
        record LN(long[] shape, boolean gamma, boolean beta, boolean strided, Values v, String note) {}
        List<LN> specs = List.of(
                new LN(new long[] {1, 1}, false, false, false, Values.normal(), ""),
                new LN(new long[] {7, 33}, true, true, false, Values.normal(), ""),
                new LN(new long[] {3, 1025}, true, false, false, Values.normal(), ""),
                new LN(new long[] {2, 3, 257}, false, false, false, Values.normal(), ""),
                new LN(new long[] {9, 33}, true, true, true, Values.normal(), ""),
                new LN(new long[] {2, 2, 3, 64}, true, true, false, Values.normal(), ""),
                // a large mean over a small spread: a one-pass E[x²]-E[x]² variance loses it
                new LN(new long[] {4, 257}, true, true, false, Values.uniform(100, 101), " mean 100.5"));
        for (LN s : specs) {
            CaseDraft d = new CaseDraft();
            long n = s.shape()[s.shape().length - 1];
            Tensor x = s.strided()
                    ? d.transposed("x", dev.audioengine.api.tensor.DType.F32, s.v(), s.shape())
                    : d.f32("x", s.v(), s.shape());
            Tensor gamma = s.gamma() ? d.f32("gamma", n) : null, beta = s.beta() ? d.f32("beta", n) : null;
            out.add(d.done(
                    d.g.layerNorm(x, gamma, beta, 1e-5f),
                    "f32",
                    label("x", s.shape(), s.strided(), s.gamma(), s.beta()) + s.note(),
                    Bound.F32));
        }
    }

    private static void rmsNorm(List<ConformanceCase> out) {
        long[][] shapes = {{1, 1}, {7, 33}, {3, 1025}, {2, 2, 3, 64}};
        boolean[] gammas = {false, true, false, true};
        for (int i = 0; i < shapes.length; i++) {
            CaseDraft d = new CaseDraft();
            Tensor gamma = gammas[i] ? d.f32("gamma", shapes[i][shapes[i].length - 1]) : null;
            out.add(d.done(
                    d.g.rmsNorm(d.f32("x", shapes[i]), gamma, 1e-6f),
                    "f32",
                    label("x", shapes[i], false, gammas[i], false),
                    Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        out.add(d.done(
                d.g.rmsNorm(d.transposed("x", 5, 65), d.f32("gamma", 65), 1e-6f),
                "f32",
                label("x", new long[] {5, 65}, true, true, false),
                Bound.F32));
    }

    private static void groupNorm(List<ConformanceCase> out) {
        record GN(long[] shape, int groups, boolean affine, boolean strided) {}
        List<GN> specs = List.of(
                new GN(new long[] {2, 6, 33}, 3, true, false),
                new GN(new long[] {1, 4, 1}, 4, true, false),
                new GN(new long[] {2, 8, 65}, 1, false, false),
                new GN(new long[] {1, 16, 257}, 16, true, false),
                new GN(new long[] {2, 4, 3, 5}, 2, true, false),
                new GN(new long[] {2, 6, 33}, 2, true, true));
        for (GN s : specs) {
            CaseDraft d = new CaseDraft();
            long c = s.shape()[1];
            Tensor x = s.strided() ? d.permuted("x", new int[] {0, 2, 1}, s.shape()) : d.f32("x", s.shape());
            Tensor gamma = s.affine() ? d.f32("gamma", c) : null, beta = s.affine() ? d.f32("beta", c) : null;
            String lbl = "x" + dims(s.shape()) + (s.strided() ? " stored [B,T,C]" : "") + " groups " + s.groups()
                    + (s.affine() ? " affine" : "");
            out.add(d.done(d.g.groupNorm(x, s.groups(), gamma, beta, 1e-5f), "f32", lbl, Bound.F32));
        }
    }

    private static void softmax(List<ConformanceCase> out) {
        long[][] plain = {{1}, {7, 33}, {4, 1025}};
        float[] scales = {1f, 1f, 0.125f};
        for (int i = 0; i < plain.length; i++) {
            CaseDraft d = new CaseDraft();
            out.add(d.done(
                    d.g.softmax(d.f32("x", plain[i]), null, scales[i]),
                    "f32",
                    "x" + dims(plain[i]) + " scale " + scales[i],
                    Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        out.add(d.done(
                d.g.softmax(d.f32("x", 3, 5, 33), d.f32("mask", 33), 0.5f),
                "f32",
                "x[3,5,33] mask[33] scale 0.5",
                Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.softmax(d.f32("x", 6, 33), d.f32("mask", new Values.NegInfOrZero(), 6, 33), 1f),
                "f32",
                "x[6,33] mask[6,33] with -inf",
                Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.softmax(d.transposed("x", 7, 33), null, 1f), "f32", "x[7,33] transposed view", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.softmax(d.f32("x", 2, 4, 9, 17), d.f32("mask", 9, 17), 0.3f),
                "f32",
                "x[2,4,9,17] mask[9,17] scale 0.3",
                Bound.F32));
        d = new CaseDraft();
        // exp(±90) overflows F32: only a kernel that subtracts the row max first gets this right
        out.add(d.done(
                d.g.softmax(d.f32("x", new Values.Normal(30), 5, 257), null, 1f),
                "f32",
                "x[5,257] sigma 30 (needs max subtraction)",
                Bound.F32));
    }

    private static final long[][] REDUCE_SHAPES = {{1025, 3}, {33, 257}, {33, 257}, {2, 7, 33}, {2, 3, 4, 5}, {1, 1}};
    private static final int[] REDUCE_AXES = {0, -1, 0, 1, 2, 1};
    private static final boolean[] KEEP = {false, false, true, false, true, false};

    private static void reduce(List<ConformanceCase> out, ReduceKind k) {
        for (int i = 0; i < REDUCE_SHAPES.length; i++) {
            CaseDraft d = new CaseDraft();
            Tensor y = d.g.reduce(k, d.f32("x", REDUCE_SHAPES[i]), REDUCE_AXES[i], KEEP[i]);
            out.add(d.done(
                    y,
                    "f32",
                    "x" + dims(REDUCE_SHAPES[i]) + " axis " + REDUCE_AXES[i] + (KEEP[i] ? " keepdim" : ""),
                    Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        out.add(d.done(
                d.g.reduce(k, d.transposed("x", 3, 65), -1, false),
                "f32",
                "x[3,65] transposed view axis -1",
                Bound.F32));
    }

    private static void argmax(List<ConformanceCase> out) {
        for (int i = 0; i < REDUCE_SHAPES.length - 1; i++) {
            CaseDraft d = new CaseDraft();
            out.add(d.done(
                    d.g.argmax(d.f32("x", REDUCE_SHAPES[i]), REDUCE_AXES[i]),
                    "f32",
                    "x" + dims(REDUCE_SHAPES[i]) + " axis " + REDUCE_AXES[i],
                    Bound.EXACT));
        }
        CaseDraft d = new CaseDraft();
        out.add(d.done(
                d.g.argmax(d.transposed("x", 3, 65), -1), "f32", "x[3,65] transposed view axis -1", Bound.EXACT));
        d = new CaseDraft();
        // integer-valued inputs make ties likely: the first maximum must win
        out.add(d.done(
                d.g.argmax(d.f32("x", Values.ints(0, 3), 16, 9), -1),
                "f32",
                "x[16,9] ints 0..3 (ties: first wins)",
                Bound.EXACT));
    }

    private static String label(String name, long[] shape, boolean strided, boolean gamma, boolean beta) {
        return name
                + dims(shape)
                + (strided ? " transposed view" : "")
                + (gamma ? " gamma" : "")
                + (beta ? " beta" : "");
    }
}
