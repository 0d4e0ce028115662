package dev.audioengine.conformance;

import static dev.audioengine.conformance.CaseDraft.dims;
import static dev.audioengine.conformance.CaseDraft.lower;

import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import java.util.List;

/**
 * The layout family: pad, concat, contiguous (which is where slice, permute and transpose views
 * meet a kernel), cast in both directions for every dtype, and write_slice into persistent
 * tensors (see {@link #writeSlice}).
 */
final class LayoutCases {
    private LayoutCases() {}

    static void addTo(List<ConformanceCase> out) {
        for (PadMode m : PadMode.values()) pad(out, m);
        concat(out);
        contiguous(out);
        cast(out);
        writeSlice(out);
    }

    private static void pad(List<ConformanceCase> out, PadMode m) {
        long[][][] specs = {
            {{7}, {2}, {3}},
            {{2, 3, 33}, {0, 1, 4}, {1, 0, 5}},
            {{1, 5, 1025}, {0, 0, 7}, {0, 0, 9}},
            {{2, 2, 3, 9}, {0, 0, 1, 2}, {0, 0, 2, 1}},
        };
        float value = m == PadMode.ZERO ? 0.5f : 0f; // ZERO's fill value is not always 0: a kernel ignoring it fails
        for (long[][] s : specs) {
            CaseDraft d = new CaseDraft();
            Tensor y = d.g.pad(d.f32("x", s[0]), m, s[1], s[2], value);
            out.add(d.done(
                    y, "f32", mode(m) + " x" + dims(s[0]) + " before" + dims(s[1]) + " after" + dims(s[2]), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor y = d.g.pad(d.transposed("x", 4, 33), m, new long[] {1, 2}, new long[] {0, 3}, value);
        out.add(d.done(y, "f32", mode(m) + " x[4,33] transposed view before[1,2] after[0,3]", Bound.F32));
    }

    private static String mode(PadMode m) {
        return m.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static void concat(List<ConformanceCase> out) {
        long[][][] pieces = {
            {{1, 5}, {3, 5}},
            {{2, 3, 7}, {2, 1, 7}, {2, 5, 7}},
            {{4, 33}, {4, 1}, {4, 257}},
            {{2, 3, 4, 5}, {2, 3, 1, 5}},
            {{7, 3}},
        };
        int[] axes = {0, 1, -1, 2, 0};
        for (int i = 0; i < pieces.length; i++) {
            CaseDraft d = new CaseDraft();
            Tensor[] xs = new Tensor[pieces[i].length];
            StringBuilder s = new StringBuilder("axis " + axes[i] + ":");
            for (int j = 0; j < xs.length; j++) {
                xs[j] = d.f32("x" + j, pieces[i][j]);
                s.append(' ').append(dims(pieces[i][j]));
            }
            out.add(d.done(d.g.concat(axes[i], xs), "f32", s.toString(), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor a = d.transposed("a", 5, 9), b = d.f32("b", 5, 4);
        out.add(d.done(d.g.concat(1, a, b), "f32", "axis 1: [5,9] transposed view, [5,4]", Bound.F32));
    }

    private static void contiguous(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.g.permute(d.f32("x", 2, 3, 5), 2, 0, 1)),
                "f32",
                "permute [2,3,5] -> (2,0,1)",
                Bound.F32));
        d = new CaseDraft();
        out.add(d.done(d.g.contiguous(d.transposed("x", 33, 257)), "f32", "transpose [257,33] -> [33,257]", Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.g.slice(d.f32("x", 4, 100), 1, 1, 98, 3)),
                "f32",
                "slice [4,100][:,1:98:3]",
                Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.g.permute(d.f32("x", 2, 3, 4, 5), 0, 2, 3, 1)),
                "f32",
                "permute [2,3,4,5] -> (0,2,3,1)",
                Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.g.slice(d.f32("x", 10, 7), 0, 3, 8)),
                "f32",
                "slice [10,7][3:8] (offset view)",
                Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.g.permute(d.f32("x", 1, 7, 1), 2, 1, 0)),
                "f32",
                "permute [1,7,1] -> (2,1,0)",
                Bound.F32));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.transposed("x", DType.F16, Values.normal(), 17, 33)),
                "f16",
                "transpose [33,17] -> [17,33]",
                Bound.EXACT));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.g.slice(d.input("x", DType.BF16, Values.normal(), 3, 64), 1, 0, 64, 2)),
                "bf16",
                "slice [3,64][:,::2]",
                Bound.EXACT));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.transposed("x", DType.I32, Values.ints(-1000, 1000), 5, 9)),
                "i32",
                "transpose [9,5] -> [5,9]",
                Bound.EXACT));
        d = new CaseDraft();
        out.add(d.done(
                d.g.contiguous(d.g.slice(d.input("x", DType.Q8_0, Values.normal(), 6, 64), 0, 1, 6, 2)),
                "q8_0",
                "slice rows [6,64][1:6:2]",
                Bound.EXACT));
    }

    /** Casts from F32 to every other dtype and back; narrowing bounds allow only rare one-step disagreements. */
    private static void cast(List<ConformanceCase> out) {
        List<DType> others =
                List.of(DType.F16, DType.BF16, DType.Q8_0, DType.Q4_0, DType.Q5_0, DType.Q5_1, DType.Q4_1, DType.I32);
        long[][] shapes = {{32}, {3, 1024}, {1, 7, 64}};
        for (DType to : others) {
            Bound b = switch (to) {
                case F16 -> Bound.CAST_F16;
                case BF16 -> Bound.CAST_BF16;
                case Q8_0 -> Bound.CAST_Q8_0;
                case Q4_0 -> Bound.CAST_Q4_0;
                case Q5_0, Q5_1 -> Bound.CAST_Q5;
                case Q4_1 -> Bound.CAST_Q4_1;
                default -> Bound.EXACT;
            };
            // I32 casts round to nearest: draw from a wide range so exact .5 ties do not occur
            Values v = to == DType.I32 ? Values.uniform(-100, 100) : new Values.Normal(2);
            for (long[] s : shapes) {
                CaseDraft d = new CaseDraft();
                out.add(d.done(d.g.cast(d.f32("x", v, s), to), lower(to), "f32->" + lower(to) + " x" + dims(s), b));
            }
            CaseDraft d = new CaseDraft();
            Tensor strided = to.isQuantized()
                    ? d.g.slice(d.f32("x", v, 6, 64), 0, 1, 6, 2)
                    : d.transposed("x", DType.F32, v, 3, 65);
            out.add(d.done(
                    d.g.cast(strided, to),
                    lower(to),
                    "f32->" + lower(to) + (to.isQuantized() ? " rows [6,64][1:6:2]" : " x[3,65] transposed view"),
                    b));
        }
        // the k-quants: rows of one to four super-blocks, and every other row of a [6, 512] (a strided view)
        for (DType k : LinearCases.SUPER_BLOCK_TYPES) {
            Bound b = switch (k) {
                case Q6_K -> Bound.CAST_Q6_K;
                case Q4_K -> Bound.CAST_Q4_K;
                case Q3_K -> Bound.CAST_Q3_K;
                case Q2_K -> Bound.CAST_Q2_K;
                default -> Bound.CAST_Q5_K;
            };
            for (long[] s : new long[][] {{256}, {3, 1024}, {1, 7, 512}}) {
                CaseDraft d = new CaseDraft();
                out.add(d.done(
                        d.g.cast(d.f32("x", new Values.Normal(2), s), k),
                        lower(k),
                        "f32->" + lower(k) + " x" + dims(s),
                        b));
            }
            CaseDraft d = new CaseDraft();
            out.add(d.done(
                    d.g.cast(d.g.slice(d.f32("x", new Values.Normal(2), 6, 512), 0, 1, 6, 2), k),
                    lower(k),
                    "f32->" + lower(k) + " rows [6,512][1:6:2]",
                    b));
            for (long[] s : new long[][] {{256}, {3, 1024}, {5, 768}}) {
                d = new CaseDraft();
                out.add(d.done(
                        d.g.cast(d.input("x", k, new Values.Normal(2), s), DType.F32),
                        lower(k),
                        lower(k) + "->f32 x" + dims(s),
                        Bound.EXACT));
            }
        }
        for (DType from : others) {
            Values v = from == DType.I32 ? Values.ints(-100000, 100000) : new Values.Normal(2);
            for (long[] s : new long[][] {{32}, {3, 1024}, {5, 64}}) {
                CaseDraft d = new CaseDraft();
                // widening is exact: every F16/BF16/I32 (|i| < 2^24) value and every dequantized block value is an F32
                out.add(d.done(
                        d.g.cast(d.input("x", from, v, s), DType.F32),
                        lower(from),
                        lower(from) + "->f32 x" + dims(s),
                        Bound.EXACT));
            }
        }
    }

    /**
     * write_slice into persistent tensors, run several times with the state carried: appends into
     * a cache at a run-time position (odd offsets, the first and last positions, a write that exactly fills the
     * capacity), along the first, a middle and the last axis, from strided sources; full
     * overwrites of recurrent state; reads of a state before and after a write in one graph (the
     * order every backend must keep); and attention over a fixed-capacity cache masked by its
     * length (one compiled step for every length). A write is a copy, so its cases are exact;
     * past the capacity is an error (CPU) or dropped (GPUs), and the guards around the persistent
     * tensor catch a backend that writes there.
     */
    private static void writeSlice(List<ConformanceCase> out) {
        // KV-cache layout [B, H, capacity, D], one token per step, positions in any order, last position included
        append(out, new long[] {1, 2, 37, 64}, 2, 1, false, 3, 4, 11, 36, 0);
        // a prefill of 5 then a step graph of the same shape at odd offsets; 32 + 5 fills the capacity exactly
        append(out, new long[] {1, 2, 37, 16}, 2, 5, false, 0, 7, 13, 32);
        // rows of [capacity, D] with odd D, first axis
        append(out, new long[] {17, 33}, 0, 3, false, 1, 14, 5);
        // the last axis: every destination row is strided
        append(out, new long[] {3, 20}, 1, 7, false, 13, 0, 6);
        // a transposed (strided) source
        append(out, new long[] {2, 19, 24}, 1, 4, true, 15, 2, 9);
        // capacity 1: the whole axis at position 0, every run
        append(out, new long[] {4, 1, 8}, 1, 1, false, 0, 0, 0);
        overwrite(out, new long[] {2, 1, 1, 128}, 3);
        overwrite(out, new long[] {5, 257}, 2);
        accumulate(out);
        readBeforeAndAfterWrite(out);
        cachedAttention(out);
        // one start per batch element (a batched decoder step); -1 skips that element
        appendPerBatch(out, new long[] {3, 2, 37, 16}, 2, 1, new int[][] {{0, 5, 36}, {1, -1, 0}, {36, 6, 1}});
        appendPerBatch(out, new long[] {4, 5, 8}, 1, 1, new int[][] {{0, 4, -1, 2}, {1, 1, 1, 1}});
        appendPerBatch(out, new long[] {2, 3, 10, 5}, 2, 2, new int[][] {{0, 8}, {8, 0}, {-1, 3}});
        batchedCachedAttention(out);
    }

    private static void appendPerBatch(List<ConformanceCase> out, long[] cap, int axis, long len, int[][] starts) {
        CaseDraft d = new CaseDraft();
        Tensor cache = d.state("cache", Values.normal(), cap);
        long[] src = cap.clone();
        src[axis] = len;
        Tensor x = d.f32("src", src);
        Tensor at = d.input("starts", DType.I32, new Values.PerRunRows(starts), cap[0]);
        StringBuilder runs = new StringBuilder();
        for (int[] r : starts) runs.append(java.util.Arrays.toString(r));
        out.add(d.doneRuns(
                "write_slice",
                d.g.writeSlice(cache, x, axis, at),
                "state" + dims(cap) + " src" + dims(src) + " axis " + axis + " per-batch starts " + runs,
                Bound.EXACT,
                starts.length));
    }

    /**
     * A batched decoder step over four cache slots of capacity 6, six steps: slot 0 runs positions 0..5 and fills the
     * capacity; slot 1 joins at step 2; slot 2 ends after step 2 and stays empty (start -1, length 0: zeros); slot 3
     * ends after step 2 and is reused by a new sequence from position 0. Each slot writes at its own position and is
     * masked by its own length, so a backend that mixes slots, or writes a skipped one, fails.
     */
    private static void batchedCachedAttention(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        long cap = 6, dh = 32, b = 4;
        int[][] pos = {{0, -1, 0, 0}, {1, -1, 1, 1}, {2, 0, 2, 2}, {3, 1, -1, 0}, {4, 2, -1, 1}, {5, 3, -1, 2}};
        int[][] len = new int[pos.length][(int) b];
        for (int r = 0; r < pos.length; r++) for (int i = 0; i < b; i++) len[r][i] = pos[r][i] + 1;
        Tensor k = d.state("k", Values.normal(), b, 2, cap, dh), v = d.state("v", Values.normal(), b, 2, cap, dh);
        Tensor p = d.input("pos", DType.I32, new Values.PerRunRows(pos), b);
        Tensor l = d.input("lengths", DType.I32, new Values.PerRunRows(len), b);
        Tensor kw = d.g.writeSlice(k, d.f32("k_new", b, 2, 1, dh), 2, p);
        Tensor vw = d.g.writeSlice(v, d.f32("v_new", b, 2, 1, dh), 2, p);
        Tensor mask = d.g.keyMask(l, 1, cap, false);
        Tensor y = d.g.attention(d.f32("q", b, 4, 1, dh), kw, vw, mask, (float) (1 / Math.sqrt(dh)), false);
        out.add(d.doneRuns(
                "write_slice",
                y,
                "batched decoder step, 4 slots of k/v[2,6,32]: ragged, joining, ending, reused, 6 steps",
                Bound.F32,
                pos.length));
    }

    private static void append(
            List<ConformanceCase> out, long[] cap, int axis, long len, boolean stridedSrc, int... starts) {
        CaseDraft d = new CaseDraft();
        Tensor cache = d.state("cache", Values.normal(), cap);
        long[] src = cap.clone();
        src[axis] = len;
        Tensor x = stridedSrc ? d.transposed("src", src) : d.f32("src", src);
        Tensor at = d.input("start", DType.I32, Values.perRun(starts), 1);
        Tensor w = d.g.writeSlice(cache, x, axis, at);
        out.add(d.doneRuns(
                "write_slice",
                w,
                "state" + dims(cap) + " src" + dims(src) + (stridedSrc ? " transposed" : "") + " axis " + axis + " at "
                        + dims(toLongs(starts)),
                Bound.EXACT,
                starts.length));
    }

    private static void overwrite(List<ConformanceCase> out, long[] shape, int runs) {
        CaseDraft d = new CaseDraft();
        Tensor s = d.state("h", Values.normal(), shape);
        Tensor w = d.g.overwrite(s, d.f32("next", shape));
        out.add(d.doneRuns(
                "write_slice", w, "overwrite state" + dims(shape) + " x" + runs + " runs", Bound.EXACT, runs));
    }

    /** s ← s + x every run: a read of the state feeds its own overwrite, and the sum carries across runs. */
    private static void accumulate(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        Tensor s = d.state("acc", Values.normal(), 4, 33);
        Tensor w = d.g.overwrite(s, d.g.add(s, d.f32("x", 4, 33)));
        out.add(d.doneRuns("write_slice", w, "accumulate state[4,33] += x, 5 runs", Bound.F32, 5));
    }

    /**
     * q·cacheᵀ before and after a one-token write, subtracted: only the written column differs,
     * so a backend that reorders the read after the write (or the write before it) fails.
     */
    private static void readBeforeAndAfterWrite(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        Tensor cache = d.state("k", Values.normal(), 1, 2, 9, 16);
        Tensor q = d.f32("q", 1, 2, 1, 16);
        Tensor before = d.g.matmul(q, cache);
        Tensor w = d.g.writeSlice(
                cache, d.f32("k_new", 1, 2, 1, 16), 2, d.input("start", DType.I32, Values.perRun(0, 4, 8, 2), 1));
        Tensor after = d.g.matmul(q, w);
        out.add(d.doneRuns(
                "write_slice",
                d.g.sub(after, before),
                "q.k before and after writing k[1,2,9,16] at [0,4,8,2]",
                Bound.F32,
                4));
    }

    /**
     * A decoder step against a fixed-capacity cache: write this step's key and value at the
     * position, mask by the length, attend. One graph serves every step; the masked part of the
     * cache holds whatever it held (random here), which the mask must hide.
     */
    private static void cachedAttention(List<ConformanceCase> out) {
        CaseDraft d = new CaseDraft();
        long cap = 11, dh = 32;
        Tensor k = d.state("k", Values.normal(), 1, 2, cap, dh), v = d.state("v", Values.normal(), 1, 2, cap, dh);
        Tensor pos = d.input("pos", DType.I32, Values.perRun(0, 1, 2, 3, 4), 1);
        Tensor len = d.input("length", DType.I32, Values.perRun(1, 2, 3, 4, 5), 1);
        Tensor kw = d.g.writeSlice(k, d.f32("k_new", 1, 2, 1, dh), 2, pos);
        Tensor vw = d.g.writeSlice(v, d.f32("v_new", 1, 2, 1, dh), 2, pos);
        Tensor mask = d.g.keyMask(len, 1, cap, true);
        Tensor y = d.g.attention(d.f32("q", 1, 2, 1, dh), kw, vw, mask, (float) (1 / Math.sqrt(dh)), false);
        out.add(d.doneRuns(
                "write_slice", y, "attention decoder step over a cached k/v[1,2,11,32], 5 steps", Bound.F32, 5));
    }

    private static long[] toLongs(int[] v) {
        long[] l = new long[v.length];
        for (int i = 0; i < v.length; i++) l[i] = v[i];
        return l;
    }
}
