package dev.audioengine.conformance;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

import java.util.List;

import static dev.audioengine.conformance.CaseDraft.dims;

/**
 * Persistent tensors, run several times with the state carried: appends into a cache at a
 * run-time position (odd offsets, the first and last positions, a write that exactly fills the
 * capacity), along the first, a middle and the last axis, from strided sources; full
 * overwrites of recurrent state; reads of a state before and after a write in one graph (the
 * order every backend must keep); and attention over a fixed-capacity cache masked by its
 * length (one compiled step for every length). A write is a copy, so its cases are exact;
 * past the capacity is an error (CPU) or dropped (GPUs), and the guards around the persistent
 * tensor catch a backend that writes there.
 */
final class StateCases {
    private StateCases() {}

    static void addTo(List<ConformanceCase> out) {
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
        for (boolean causal : new boolean[] {false, true}) keyMask(out, causal);
        cachedAttention(out);
    }

    private static void append(List<ConformanceCase> out, long[] cap, int axis, long len, boolean stridedSrc, int... starts) {
        CaseDraft d = new CaseDraft();
        Tensor cache = d.state("cache", Values.normal(), cap);
        long[] src = cap.clone();
        src[axis] = len;
        Tensor x = stridedSrc ? d.transposed("src", src) : d.f32("src", src);
        Tensor at = d.input("start", DType.I32, Values.perRun(starts), 1);
        Tensor w = d.g.writeSlice(cache, x, axis, at);
        out.add(d.doneRuns("write_slice", w, "state" + dims(cap) + " src" + dims(src) + (stridedSrc ? " transposed" : "")
                + " axis " + axis + " at " + dims(toLongs(starts)), Bound.EXACT, starts.length));
    }

    private static void overwrite(List<ConformanceCase> out, long[] shape, int runs) {
        CaseDraft d = new CaseDraft();
        Tensor s = d.state("h", Values.normal(), shape);
        Tensor w = d.g.overwrite(s, d.f32("next", shape));
        out.add(d.doneRuns("write_slice", w, "overwrite state" + dims(shape) + " x" + runs + " runs", Bound.EXACT, runs));
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
        Tensor w = d.g.writeSlice(cache, d.f32("k_new", 1, 2, 1, 16), 2, d.input("start", DType.I32, Values.perRun(0, 4, 8, 2), 1));
        Tensor after = d.g.matmul(q, w);
        out.add(d.doneRuns("write_slice", d.g.sub(after, before), "q.k before and after writing k[1,2,9,16] at [0,4,8,2]", Bound.F32, 4));
    }

    private static void keyMask(List<ConformanceCase> out, boolean causal) {
        int[] lengths = {1, 7, 13, 0, 20};
        for (long tq : new long[] {1, 3}) {
            for (int l : lengths) { // 0: nothing visible (zeros from attention); 20: past the capacity, everything visible
                if (tq > 1 && l < tq) continue;
                CaseDraft c = new CaseDraft();
                Tensor length = c.input("length", DType.I32, Values.ints(l, l), 1);
                out.add(c.done(c.g.keyMask(length, tq, 13, causal), "i32", "length " + l + " queries " + tq + " capacity 13"
                        + (causal ? " causal" : ""), Bound.EXACT));
            }
        }
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
        out.add(d.doneRuns("write_slice", y, "attention decoder step over a cached k/v[1,2,11,32], 5 steps", Bound.F32, 5));
    }

    private static long[] toLongs(int[] v) {
        long[] l = new long[v.length];
        for (int i = 0; i < v.length; i++) l[i] = v[i];
        return l;
    }
}
