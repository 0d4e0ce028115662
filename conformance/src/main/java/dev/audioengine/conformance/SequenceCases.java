package dev.audioengine.conformance;

import static dev.audioengine.conformance.CaseDraft.dims;
import static dev.audioengine.conformance.CaseDraft.lower;

import dev.audioengine.api.graph.Op.RopeMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import java.util.List;

/**
 * The sequence family: get_rows over every table dtype, rope, fused attention (also against the
 * composite path), lstm, and key_mask of a cache holding some keys.
 */
final class SequenceCases {
    private SequenceCases() {}

    static final List<DType> KV_TYPES = List.of(DType.F32, DType.F16, DType.BF16);

    static void addTo(List<ConformanceCase> out) {
        for (DType t : LinearCases.WEIGHT_TYPES) getRows(out, t);
        for (DType t : LinearCases.SUPER_BLOCK_TYPES) getSuperBlockRows(out, t);
        getRowsOfIntegers(out);
        rope(out);
        for (DType kv : KV_TYPES) attention(out, kv);
        attentionVsComposite(out);
        maskedCacheSteps(out);
        lstm(out);
        for (boolean causal : new boolean[] {false, true}) keyMask(out, causal);
        batchedMaskedSteps(out);
        batchedKeyMask(out);
    }

    /**
     * A batched decoder step: B sequences of one cache capacity, each masked by its own length ([B, 1, Tq, Tk]): a
     * sequence with nothing visible (zeros) beside full ones, lengths either side of a 64-key block, grouped kv heads,
     * F16 caches, three and twenty causal query rows, and five cross-attention caches of 24.7 s of audio with ragged
     * lengths.
     */
    private static void batchedMaskedSteps(List<ConformanceCase> out) {
        for (long dh : new long[] {36, 52})
            for (long hkv : new long[] {8, 2}) batchedStep(out, DType.F32, 1, hkv, 130, dh, false, 0, 65, 130, 1);
        batchedStep(out, DType.F16, 1, 2, 130, 36, false, 64, 0, 130);
        batchedStep(out, DType.F32, 3, 2, 130, 52, true, 3, 70, 130);
        // 20 queries: past the split decode kernels' 4, so the tiled kernel (two query tiles) reads the per-batch mask
        batchedStep(out, DType.F32, 20, 2, 130, 52, true, 0, 70, 130);
        batchedStep(out, DType.F32, 1, 8, 1030, 52, false, 1001, 1, 500, 1030, 64);
    }

    private static void batchedStep(
            List<ConformanceCase> out, DType kv, long tq, long hkv, long cap, long dh, boolean causal, int... lengths) {
        CaseDraft d = new CaseDraft();
        long b = lengths.length;
        Tensor k = d.input("k", kv, Values.normal(), b, hkv, cap, dh);
        Tensor v = d.input("v", kv, Values.normal(), b, hkv, cap, dh);
        Tensor mask = d.f32("mask", new Values.KeyPrefixes(lengths), b, 1, tq, cap);
        Tensor y = d.g.attention(d.f32("q", b, 8, tq, dh), k, v, mask, (float) (1 / Math.sqrt(dh)), causal);
        String shape = "q[" + b + ",8," + tq + "," + dh + "] kv[" + b + "," + hkv + "," + cap + "," + dh
                + "] mask per batch, lengths " + java.util.Arrays.toString(lengths) + (causal ? " causal" : "");
        out.add(d.done(y, lower(kv), shape, attentionBound(kv)));
    }

    /** key_mask of a batch of caches: lengths 0, inside, the capacity and past it, in one [B, 1, Tq, Tk] mask. */
    private static void batchedKeyMask(List<ConformanceCase> out) {
        for (boolean causal : new boolean[] {false, true}) {
            for (long tq : new long[] {1, 3}) {
                int[] lengths = tq == 1 ? new int[] {1, 7, 0, 13, 20} : new int[] {3, 7, 13, 20};
                CaseDraft c = new CaseDraft();
                Tensor length =
                        c.input("lengths", DType.I32, new Values.PerRunRows(new int[][] {lengths}), lengths.length);
                out.add(c.done(
                        c.g.keyMask(length, tq, 13, causal),
                        "i32",
                        "lengths " + java.util.Arrays.toString(lengths) + " queries " + tq + " capacity 13"
                                + (causal ? " causal" : ""),
                        Bound.EXACT));
            }
        }
    }

    private static void getRows(List<ConformanceCase> out, DType table) {
        long[][][] specs = {{{1, 32}, {1}}, {{50, 64}, {7}}, {{257, 96}, {3, 5}}, {{10, 32}, {2, 3, 4}}};
        for (long[][] s : specs) {
            CaseDraft d = new CaseDraft();
            Tensor tab = d.input("table", table, Values.normal(), s[0]);
            Tensor ids = d.input("ids", DType.I32, Values.ints(0, (int) s[0][0] - 1), s[1]);
            out.add(d.done(d.g.getRows(tab, ids), lower(table), "table" + dims(s[0]) + " ids" + dims(s[1]), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor tab = d.input("table", table, Values.normal(), 40, 64);
        Tensor ids = d.transposed("ids", DType.I32, Values.ints(0, 39), 4, 5);
        out.add(d.done(d.g.getRows(tab, ids), lower(table), "table[40,64] ids[4,5] transposed view", Bound.F32));
        if (!table.isQuantized()) {
            d = new CaseDraft();
            tab = d.transposed("table", table, Values.normal(), 50, 33);
            ids = d.input("ids", DType.I32, Values.ints(0, 49), 9);
            out.add(d.done(d.g.getRows(tab, ids), lower(table), "table[50,33] transposed view ids[9]", Bound.F32));
        }
    }

    /** Embedding rows of k-quant super-blocks: one, two and three per row, ids repeated and in a transposed view. */
    private static void getSuperBlockRows(List<ConformanceCase> out, DType table) {
        long[][][] specs = {{{1, 256}, {1}}, {{50, 512}, {7}}, {{257, 768}, {3, 5}}};
        for (long[][] s : specs) {
            CaseDraft d = new CaseDraft();
            Tensor tab = d.input("table", table, Values.normal(), s[0]);
            Tensor ids = d.input("ids", DType.I32, Values.ints(0, (int) s[0][0] - 1), s[1]);
            out.add(d.done(d.g.getRows(tab, ids), lower(table), "table" + dims(s[0]) + " ids" + dims(s[1]), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor tab = d.input("table", table, Values.normal(), 40, 256);
        Tensor ids = d.transposed("ids", DType.I32, Values.ints(0, 39), 4, 5);
        out.add(d.done(d.g.getRows(tab, ids), lower(table), "table[40,256] ids[4,5] transposed view", Bound.F32));
    }

    /** An I32 table (token ids to codebook indices, say) comes out as exact F32 integers. */
    private static void getRowsOfIntegers(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        Tensor tab = d.input("table", DType.I32, Values.ints(-100000, 100000), 20, 7);
        Tensor ids = d.input("ids", DType.I32, Values.ints(0, 19), 2, 6);
        out.add(d.done(d.g.getRows(tab, ids), "i32", "table[20,7] ids[2,6]", Bound.EXACT));
    }

    private static void rope(List<ConformanceCase> out) {
        record R(long b, long h, long t, long dHead, int dims, RopeMode mode, int maxPos, boolean strided) {}
        List<R> specs = List.of(
                new R(1, 2, 7, 64, 64, RopeMode.NORMAL, 63, false),
                new R(1, 2, 7, 64, 64, RopeMode.NEOX, 63, false),
                new R(2, 3, 5, 64, 32, RopeMode.NORMAL, 63, false),
                new R(2, 3, 5, 48, 16, RopeMode.NEOX, 63, false),
                new R(1, 4, 9, 32, 32, RopeMode.NEOX, 63, true),
                new R(1, 4, 9, 32, 32, RopeMode.NORMAL, 63, true),
                new R(1, 1, 1, 2, 2, RopeMode.NORMAL, 63, false),
                // positions up to 1023: angles to ~1000 rad, where an F32 angle is still good to ~1e-4
                new R(1, 2, 33, 128, 128, RopeMode.NEOX, 1023, false),
                new R(1, 2, 33, 128, 128, RopeMode.NORMAL, 1023, false));
        for (R r : specs) {
            CaseDraft d = new CaseDraft();
            Tensor x = r.strided()
                    ? d.permuted("x", new int[] {0, 2, 1, 3}, r.b(), r.h(), r.t(), r.dHead())
                    : d.f32("x", r.b(), r.h(), r.t(), r.dHead());
            Tensor pos = d.input("pos", DType.I32, Values.ints(0, r.maxPos()), r.t());
            String s = r.mode().name().toLowerCase(java.util.Locale.ROOT) + " x[" + r.b() + "," + r.h() + "," + r.t()
                    + "," + r.dHead() + "] dims " + r.dims() + (r.strided() ? " stored [B,T,H,D]" : "") + " pos<="
                    + r.maxPos();
            out.add(d.done(d.g.rope(x, pos, r.dims(), 10000f, r.mode()), "f32", s, Bound.F32));
        }
    }

    private record Attn(long b, long h, long hkv, long tq, long tk, long d, boolean causal, int mask, boolean strided) {
        static final int NO_MASK = 0, NORMAL_MASK = 1, NEG_INF_MASK = 2;

        String describe() {
            return "q[" + b + "," + h + "," + tq + "," + d + "] kv[" + b + "," + hkv + "," + tk + "," + d + "]"
                    + (causal ? " causal" : "")
                    + (mask == NORMAL_MASK ? " mask" : mask == NEG_INF_MASK ? " mask with -inf" : "")
                    + (strided ? " stored [B,T,H,D]" : "");
        }
    }

    private static final List<Attn> ATTENTION = List.of(
            new Attn(1, 2, 2, 7, 7, 16, false, Attn.NO_MASK, false),
            new Attn(2, 4, 4, 33, 33, 64, true, Attn.NO_MASK, false),
            new Attn(1, 2, 2, 9, 17, 32, false, Attn.NORMAL_MASK, false),
            new Attn(1, 8, 2, 5, 65, 64, true, Attn.NO_MASK, false),
            new Attn(1, 4, 4, 1, 257, 64, false, Attn.NO_MASK, false),
            new Attn(1, 1, 1, 3, 1, 8, false, Attn.NO_MASK, false),
            new Attn(1, 3, 3, 11, 11, 32, false, Attn.NORMAL_MASK, true),
            new Attn(1, 2, 2, 17, 33, 32, false, Attn.NEG_INF_MASK, false));

    static Bound attentionBound(DType kv) {
        return switch (kv) {
            case F16 -> Bound.F16_ATTENTION;
            case BF16 -> Bound.BF16_ATTENTION;
            default -> Bound.F32;
        };
    }

    private static void attention(List<ConformanceCase> out, DType kv) {
        for (Attn a : ATTENTION) {
            CaseDraft d = new CaseDraft();
            Tensor[] qkvm = attentionInputs(d, a, kv);
            Tensor y = d.g.attention(qkvm[0], qkvm[1], qkvm[2], qkvm[3], (float) (1 / Math.sqrt(a.d())), a.causal());
            out.add(d.done(y, lower(kv), a.describe(), attentionBound(kv)));
        }
    }

    /**
     * Fused attention checked against matmul → softmax → matmul on the reference: the evidence
     * for FUSED_ATTENTION is that the fused op equals the composite path it replaces.
     */
    private static void attentionVsComposite(List<ConformanceCase> out) {
        for (Attn a : ATTENTION) {
            if (a.causal() || a.h() != a.hkv()) continue; // the composite path has neither
            float scale = (float) (1 / Math.sqrt(a.d()));
            CaseDraft d = new CaseDraft();
            Tensor[] f = attentionInputs(d, a, DType.F32);
            Tensor y = d.g.attention(f[0], f[1], f[2], f[3], scale, false);
            CaseDraft ref = new CaseDraft();
            Tensor[] c = attentionInputs(ref, a, DType.F32);
            Tensor yc = ref.g.attentionComposite(c[0], c[1], c[2], c[3], scale);
            out.add(d.done(y, "f32", a.describe() + " vs composite", Bound.F32, ref.g.build(yc)));
        }
    }

    /**
     * Decoder steps of Moonshine's shapes: one query row over a fixed-capacity cache whose key
     * mask (key_mask's values, as an input) shows only a prefix; head dims 36 and 52 (not
     * multiples of a vector), grouped kv heads, k/v contiguous or viewed from [B, T, H, D].
     * Lengths: nothing visible (zeros), one key, either side of a 64-key block's edge, the whole
     * capacity (its last, short block ends where the tensor ends). Two and three query rows,
     * the latter causal, take the same few-row path; so do four, and a cache of 1030 keys with 1001 shown.
     */
    private static void maskedCacheSteps(List<ConformanceCase> out) {
        long cap = 130;
        for (long dh : new long[] {36, 52}) {
            for (long hkv : new long[] {8, 2})
                for (int len : new int[] {0, 1, 64, 65, 130})
                    maskedStep(out, DType.F32, 1, hkv, cap, dh, len, false, false);
            maskedStep(out, DType.F32, 2, 2, cap, dh, 65, false, false);
            maskedStep(out, DType.F32, 3, 2, cap, dh, 130, true, false);
        }
        maskedStep(out, DType.F32, 1, 8, cap, 36, 65, false, true);
        maskedStep(out, DType.F16, 1, 2, cap, 36, 65, false, false);
        // a cross-attention cache of 24.7 s of audio (GPUs split it over the keys: many splits, the last ones hidden),
        // and the most query rows the GPUs' decoder-step kernels take, causal
        maskedStep(out, DType.F32, 1, 8, 1030, 52, 1001, false, false);
        maskedStep(out, DType.F32, 4, 2, 300, 36, 300, true, false);
    }

    private static void maskedStep(
            List<ConformanceCase> out,
            DType kv,
            long tq,
            long hkv,
            long cap,
            long dh,
            int len,
            boolean causal,
            boolean strided) {
        CaseDraft d = new CaseDraft();
        int[] stored = {0, 2, 1, 3};
        Tensor k = strided
                ? d.permuted("k", kv, Values.normal(), stored, 1, hkv, cap, dh)
                : d.input("k", kv, Values.normal(), 1, hkv, cap, dh);
        Tensor v = strided
                ? d.permuted("v", kv, Values.normal(), stored, 1, hkv, cap, dh)
                : d.input("v", kv, Values.normal(), 1, hkv, cap, dh);
        Tensor mask = d.f32("mask", new Values.KeyPrefix(len), tq, cap);
        Tensor y = d.g.attention(d.f32("q", 1, 8, tq, dh), k, v, mask, (float) (1 / Math.sqrt(dh)), causal);
        String shape = "q[1,8," + tq + "," + dh + "] kv[1," + hkv + "," + cap + "," + dh + "] key mask length " + len
                + (causal ? " causal" : "") + (strided ? " stored [B,T,H,D]" : "");
        out.add(d.done(y, lower(kv), shape, attentionBound(kv)));
    }

    private static Tensor[] attentionInputs(CaseDraft d, Attn a, DType kv) {
        int[] stored = {0, 2, 1, 3};
        Tensor q = a.strided()
                ? d.permuted("q", DType.F32, Values.normal(), stored, a.b(), a.h(), a.tq(), a.d())
                : d.f32("q", a.b(), a.h(), a.tq(), a.d());
        Tensor k = a.strided()
                ? d.permuted("k", kv, Values.normal(), stored, a.b(), a.hkv(), a.tk(), a.d())
                : d.input("k", kv, Values.normal(), a.b(), a.hkv(), a.tk(), a.d());
        Tensor v = a.strided()
                ? d.permuted("v", kv, Values.normal(), stored, a.b(), a.hkv(), a.tk(), a.d())
                : d.input("v", kv, Values.normal(), a.b(), a.hkv(), a.tk(), a.d());
        Tensor mask = switch (a.mask()) {
            case Attn.NORMAL_MASK -> d.f32("mask", a.tq(), a.tk());
            case Attn.NEG_INF_MASK -> d.f32("mask", new Values.NegInfOrZero(), a.tq(), a.tk());
            default -> null;
        };
        return new Tensor[] {q, k, v, mask};
    }

    private static void lstm(List<ConformanceCase> out) {
        // {B, T, I, H}: the last is stored [T, B, I]; the Kokoro-sized one (its prosody LSTMs: 640 in, 256 hidden) and
        // the one-step batch exercise the GPU's projection GEMM over all steps and its per-step recurrence at scale
        long[][] bti = {
            {1, 1, 1, 1},
            {1, 17, 5, 7},
            {3, 9, 33, 16},
            {2, 33, 64, 33},
            {3, 1, 19, 45},
            {1, 70, 640, 256},
            {2, 5, 6, 4}
        };
        for (int i = 0; i < bti.length; i++) {
            long b = bti[i][0], t = bti[i][1], in = bti[i][2], h = bti[i][3];
            boolean strided = i == bti.length - 1;
            CaseDraft d = new CaseDraft();
            // gate pre-activations of about unit spread whatever the width, so sigmoids and tanh are not all saturated
            Values w = new Values.Normal(Math.min(0.5, 1.5 / Math.sqrt(in + h)));
            Tensor x = strided ? d.permuted("x", new int[] {1, 0, 2}, b, t, in) : d.f32("x", b, t, in);
            Tensor y = d.g.lstm(
                    x,
                    d.f32("w_ih", w, 4 * h, in),
                    d.f32("w_hh", w, 4 * h, h),
                    d.f32("b_ih", w, 4 * h),
                    d.f32("b_hh", w, 4 * h),
                    d.f32("h0", b, h),
                    d.f32("c0", b, h));
            out.add(d.done(
                    y,
                    "f32",
                    "x[" + b + "," + t + "," + in + "] hidden " + h + (strided ? " x stored [T,B,I]" : ""),
                    Bound.F32));
        }
    }

    private static void keyMask(List<ConformanceCase> out, boolean causal) {
        int[] lengths = {1, 7, 13, 0, 20};
        for (long tq : new long[] {1, 3}) {
            for (int l :
                    lengths) { // 0: nothing visible (zeros from attention); 20: past the capacity, everything visible
                if (tq > 1 && l < tq) continue;
                CaseDraft c = new CaseDraft();
                Tensor length = c.input("length", DType.I32, Values.ints(l, l), 1);
                out.add(c.done(
                        c.g.keyMask(length, tq, 13, causal),
                        "i32",
                        "length " + l + " queries " + tq + " capacity 13" + (causal ? " causal" : ""),
                        Bound.EXACT));
            }
        }
    }
}
