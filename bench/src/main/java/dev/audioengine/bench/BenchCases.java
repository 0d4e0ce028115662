package dev.audioengine.bench;

import static dev.audioengine.conformance.CaseDraft.lower;

import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Op.ReduceKind;
import dev.audioengine.api.graph.Op.RopeMode;
import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.conformance.Bound;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.CaseDraft;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * One representative, model-sized shape per op and dtype for {@code audioengine bench ops}:
 * large enough that a run takes milliseconds (so launch overhead does not dominate on a GPU)
 * and small enough that the whole list runs in about a minute on two CPU cores.
 */
public final class BenchCases {
    private static final List<ConformanceCase> ALL = build();

    private BenchCases() {}

    public static List<ConformanceCase> all() {
        return ALL;
    }

    /** The bench cases of one op (null = all); an unknown op fails with the valid names. */
    public static List<ConformanceCase> select(String op) {
        if (op == null) return ALL;
        List<ConformanceCase> out =
                ALL.stream().filter(c -> c.op().equalsIgnoreCase(op)).toList();
        if (out.isEmpty())
            throw new IllegalArgumentException("no bench case for op '" + op + "'; ops: "
                    + ALL.stream().map(ConformanceCase::op).distinct().toList());
        return out;
    }

    private static List<ConformanceCase> build() {
        List<ConformanceCase> out = new ArrayList<>();
        Bound b = Bound.F32; // bench cases are never compared; the bound is unused
        CaseDraft d = new CaseDraft();
        out.add(d.done(d.g.add(d.f32("a", 1024, 1024), d.f32("b", 1024, 1024)), "f32", "[1024,1024]+[1024,1024]", b));
        d = new CaseDraft();
        out.add(d.done(d.g.mul(d.f32("a", 1024, 1024), d.f32("b", 1024)), "f32", "[1024,1024]*[1024]", b));
        for (UnaryKind k : List.of(UnaryKind.GELU_ERF, UnaryKind.SILU, UnaryKind.TANH, UnaryKind.EXP)) {
            d = new CaseDraft();
            out.add(d.done(d.g.unary(k, d.f32("x", 1024, 1024)), "f32", "[1024,1024]", b));
        }
        d = new CaseDraft();
        out.add(d.done(
                d.g.snake(d.f32("x", 1, 512, 4096), d.f32("alpha", Values.uniform(0.1, 2), 512)),
                "f32",
                "[1,512,4096]",
                b));
        for (DType w : CaseCatalogue.WEIGHT_TYPES) {
            d = new CaseDraft();
            out.add(d.done(
                    d.g.matmul(d.f32("x", 256, 1024), d.input("w", w, Values.normal(), 1024, 1024)),
                    lower(w),
                    "x[256,1024] w[1024,1024]",
                    b));
            d = new CaseDraft();
            out.add(d.done(
                    d.g.matmul(d.f32("x", 1, 2048), d.input("w", w, Values.normal(), 2048, 2048)),
                    lower(w),
                    "x[1,2048] w[2048,2048] gemv",
                    b));
        }
        d = new CaseDraft();
        out.add(d.done(
                d.g.conv1d(d.f32("x", 1, 256, 1024), d.f32("w", 256, 256, 3), d.f32("bias", 256), 1, 1, 1, 1),
                "f32",
                "x[1,256,1024] w[256,256,3]",
                b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.conv1d(d.f32("x", 1, 512, 4096), d.f32("w", 512, 1, 7), d.f32("bias", 512), 1, 3, 1, 512),
                "f32",
                "depthwise x[1,512,4096] w[512,1,7]",
                b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.convTranspose1d(
                        d.f32("x", 1, 256, 512), d.f32("w", 256, 128, 16), d.f32("bias", 128), 8, 4, 0, 1, 1),
                "f32",
                "x[1,256,512] w[256,128,16] s8",
                b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.pad(d.f32("x", 1, 512, 4096), PadMode.REFLECT, new long[] {0, 0, 3}, new long[] {0, 0, 3}, 0),
                "f32",
                "reflect [1,512,4096] +3+3",
                b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.concat(1, d.f32("a", 1, 256, 4096), d.f32("b", 1, 256, 4096)), "f32", "2x[1,256,4096] axis 1", b));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.transposed("x", 1024, 1024)), "f32", "transpose [1024,1024]", b));
        for (DType to : List.of(DType.F16, DType.Q8_0)) {
            d = new CaseDraft();
            out.add(d.done(d.g.cast(d.f32("x", 1024, 1024), to), lower(to), "f32->" + lower(to) + " [1024,1024]", b));
        }
        d = new CaseDraft();
        out.add(d.done(
                d.g.layerNorm(d.f32("x", 1024, 1024), d.f32("gamma", 1024), d.f32("beta", 1024), 1e-5f),
                "f32",
                "[1024,1024]",
                b));
        d = new CaseDraft();
        out.add(d.done(d.g.rmsNorm(d.f32("x", 1024, 1024), d.f32("gamma", 1024), 1e-6f), "f32", "[1024,1024]", b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.groupNorm(d.f32("x", 1, 512, 2048), 32, d.f32("gamma", 512), d.f32("beta", 512), 1e-5f),
                "f32",
                "[1,512,2048] groups 32",
                b));
        d = new CaseDraft();
        out.add(d.done(d.g.softmax(d.f32("x", 1024, 1024), null, 0.125f), "f32", "[1024,1024]", b));
        for (ReduceKind k : List.of(ReduceKind.SUM, ReduceKind.MAX)) {
            d = new CaseDraft();
            out.add(d.done(d.g.reduce(k, d.f32("x", 1024, 1024), -1, false), "f32", "[1024,1024] axis -1", b));
        }
        d = new CaseDraft();
        out.add(d.done(d.g.argmax(d.f32("x", 1024, 1024), -1), "f32", "[1024,1024] axis -1", b));
        for (DType t : List.of(DType.F32, DType.F16, DType.Q8_0)) {
            d = new CaseDraft();
            Tensor table = d.input("table", t, Values.normal(), 4096, 1024),
                    ids = d.input("ids", DType.I32, Values.ints(0, 4095), 512);
            out.add(d.done(d.g.getRows(table, ids), lower(t), "table[4096,1024] ids[512]", b));
        }
        d = new CaseDraft();
        out.add(d.done(
                d.g.rope(
                        d.f32("x", 1, 8, 512, 64),
                        d.input("pos", DType.I32, Values.ints(0, 511), 512),
                        64,
                        10000f,
                        RopeMode.NEOX),
                "f32",
                "[1,8,512,64] neox",
                b));
        for (DType kv : CaseCatalogue.KV_TYPES) {
            d = new CaseDraft();
            Tensor q = d.f32("q", 1, 8, 512, 64),
                    k = d.input("k", kv, Values.normal(), 1, 8, 512, 64),
                    v = d.input("v", kv, Values.normal(), 1, 8, 512, 64);
            out.add(d.done(d.g.attention(q, k, v, null, 0.125f, true), lower(kv), "q,k,v[1,8,512,64] causal", b));
        }
        // the batched Moonshine encoder's attention (a server's joining windows): four windows padded to 416 frames,
        // each hiding the keys past its own length; head size 52 as in moonshine-base
        d = new CaseDraft();
        out.add(d.done(
                d.g.attention(
                        d.f32("q", 4, 8, 416, 52),
                        d.f32("k", 4, 8, 416, 52),
                        d.f32("v", 4, 8, 416, 52),
                        d.f32("mask", new Values.KeyPrefixes(new int[] {416, 300, 208, 120}), 4, 1, 416, 416),
                        (float) (1 / Math.sqrt(52)),
                        false),
                "f32",
                "q,k,v[4,8,416,52] key mask per window",
                b));
        d = new CaseDraft();
        Values w = new Values.Normal(0.1);
        out.add(d.done(
                d.g.lstm(
                        d.f32("x", 1, 256, 256),
                        d.f32("w_ih", w, 1024, 256),
                        d.f32("w_hh", w, 1024, 256),
                        d.f32("b_ih", w, 1024),
                        d.f32("b_hh", w, 1024),
                        d.f32("h0", 1, 256),
                        d.f32("c0", 1, 256)),
                "f32",
                "x[1,256,256] hidden 256",
                b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.stft(d.f32("x", 1, 160000), d.f32("window", Values.uniform(0.5, 1), 400), 400, 160, true),
                "f32",
                "x[1,160000] n_fft 400 hop 160",
                b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.stft(d.f32("x", 1, 131072), d.f32("window", Values.uniform(0.5, 1), 1024), 1024, 256, true),
                "f32",
                "x[1,131072] n_fft 1024 hop 256",
                b));
        d = new CaseDraft();
        out.add(d.done(
                d.g.istft(
                        d.f32("spec", 1, 513, 513, 2),
                        d.f32("window", Values.uniform(0.5, 1), 1024),
                        1024,
                        256,
                        true,
                        131072),
                "f32",
                "spec[1,513,513,2] n_fft 1024 hop 256",
                b));
        d = new CaseDraft();
        out.add(d.done(d.g.magnitude(d.f32("z", 1, 513, 1000, 2)), "f32", "[1,513,1000,2]", b));
        return List.copyOf(out);
    }
}
