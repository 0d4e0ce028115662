package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.linear.LaneSum;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Fused attention, softmax(q·kᵀ·scale + mask [+ causal]) · v, flash-attention style: each work
 * unit is a block of query rows of one (batch, head); it walks the keys in blocks, keeping a
 * running row max, a running denominator and an unnormalized output, so no Tq x Tk matrix exists.
 * Key blocks are converted to F32 (K transposed so scores vectorize across keys) once per kv head
 * and thread, not once per query block: a thread's units run a head's query blocks in order, so
 * the head's converted blocks stay in its scratch for the next ones (CACHE_BYTES bounds that;
 * faster on Moonshine's encoder than converting them again, and than query blocks of 64 or 128,
 * which would also leave fewer units to spread over threads). Grouped queries read
 * k/v head h / (H / Hkv). A row whose every key is masked yields zeros, the reference's
 * convention for softmax over nothing. The mask is [Tq, Tk] (padded to rank 4 with stride 0, so
 * every batch element reads the same rows) or [B, 1, Tq, Tk] (batch element b reads its own): the
 * mask is always addressed at (b, 0, i, j), which costs the broadcast case nothing.
 * <p>
 * A key block that the mask hides from every row of the query block is skipped before its keys
 * are loaded: exp(−inf) adds nothing, so the result is the same, and a decoder step over a
 * fixed-capacity cache (docs/STATE.md) reads only the keys up to its length.
 * <p>
 * A block of fewer than {@link #G} query rows (a decoder step) over F32 k/v with unit-stride rows
 * reads keys and values where they lie: transposing a key block costs more than the one or two
 * rows' dot products over it, so scores are dot products along each key row instead (faster on
 * Moonshine's decoder steps, AttentionSpeed).
 */
public final class AttentionKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Whether dot products' lane sums go eight at a time through LaneSum's vector tree (16-lane vectors). */
    private static final boolean EIGHT_SUMS = L == 16;

    private static final int QB = 32, KB = 64;
    /**
     * Most scratch per thread and node for one kv head's converted keys and values: T=1250 at
     * d=36 (430 KB) fits, d=64 up to 1024 keys; it stays in a core's L2.
     */
    private static final long CACHE_BYTES = 512 << 10;
    /** Query rows processed together, so each loaded key or value vector feeds several FMAs. */
    private static final int G = 4;

    @Override
    public boolean supports(Tensor node) {
        DType kv = node.input(1).dtype();
        return node.input(0).dtype() == DType.F32
                && kv.isFloat()
                && node.input(2).dtype() == kv
                && (node.inputs().size() < 4 || node.input(3).dtype() == DType.F32);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Attention op = (Op.Attention) node.op();
        CpuTensor q = in[0], k = in[1], v = in[2], mask = in.length > 3 ? in[3] : null;
        int batch = (int) q.dims()[0], heads = (int) q.dims()[1], tq = (int) q.dims()[2], d = (int) q.dims()[3];
        int kvHeads = (int) k.dims()[1], tk = (int) k.dims()[2];
        int dp = (d + L - 1) / L * L;
        int qBlocks = (tq + QB - 1) / QB, units = batch * heads * qBlocks;
        int threads = ctx.pool().threads();
        boolean inPlace =
                k.dtype() == DType.F32 && v.dtype() == DType.F32 && k.strides()[3] == 1 && v.strides()[3] == 1;
        int keyBlocks = (tk + KB - 1) / KB;
        boolean cache = !(inPlace && tq < G)
                && (long) keyBlocks * KB * (d + dp) * 4 <= CACHE_BYTES; // decoder steps convert nothing
        Scratch[] scratch = new Scratch[threads];
        for (int i = 0; i < threads; i++) scratch[i] = new Scratch(dp, d, cache ? keyBlocks : 0);
        Shape sh = new Shape(heads, kvHeads, tq, tk, d, dp, op.scale(), op.causal(), inPlace);
        return () -> {
            for (Scratch s : scratch) s.head = -1; // k and v may have changed since the last run
            int chunks = Math.min(threads, units);
            ctx.pool().parallelFor(chunks, c -> {
                Scratch s = scratch[c];
                for (int u = units * c / chunks, end = units * (c + 1) / chunks; u < end; u++) {
                    int bh = u / qBlocks, qb = u % qBlocks;
                    queryBlock(sh, q, k, v, mask, out, bh / heads, bh % heads, qb * QB, Math.min(QB, tq - qb * QB), s);
                }
            });
        };
    }

    /** inPlace: k and v are F32 with contiguous rows, so few-row blocks may read them where they lie. */
    private record Shape(
            int heads, int kvHeads, int tq, int tk, int d, int dp, float scale, boolean causal, boolean inPlace) {}

    /**
     * Key blocks of one kv head once converted, for the head's later query blocks. kt: block i's
     * transposed keys at i·d·KB (kt[i·d·KB + e·KB + j] = k[i·KB + j, e]); v: its value rows at
     * i·KB·dp, padded to dp with zeros. Without a cache (a head too long for CACHE_BYTES) every
     * block goes to slot 0 and is converted again for every query block.
     */
    private static final class Scratch {
        final float[] q, kt, v, s, o, max, sum, alpha, row;
        /** Dot products' lanes before their sums: eight keys of up to three query rows (or one vector). */
        final float[] lanes = new float[Math.max(3 * 8 * 16, L)];
        /** loaded[i]: slot i holds key block i of kv head {@code head} (b · Hkv + hk; −1: none). */
        final boolean[] loaded;

        int head = -1;

        Scratch(int dp, int d, int cachedBlocks) {
            int slots = Math.max(1, cachedBlocks);
            row = new float[d];
            q = new float[QB * dp];
            kt = new float[slots * d * KB];
            v = new float[slots * KB * dp];
            loaded = new boolean[cachedBlocks];
            s = new float[G * KB];
            o = new float[QB * dp];
            max = new float[QB];
            sum = new float[QB];
            alpha = new float[G];
        }
    }

    private static void queryBlock(
            Shape sh,
            CpuTensor q,
            CpuTensor k,
            CpuTensor v,
            CpuTensor mask,
            CpuTensor out,
            int b,
            int h,
            int i0,
            int rows,
            Scratch s) {
        int d = sh.d, dp = sh.dp, hk = h / (sh.heads / sh.kvHeads);
        for (int r = 0; r < rows; r++) {
            long qo = q.offset(b, h, i0 + r, 0), qs = q.strides()[3];
            for (int e = 0; e < d; e++) s.q[r * dp + e] = q.getFloat(qo + e * qs) * sh.scale;
        }
        Arrays.fill(s.o, 0, rows * dp, 0f);
        Arrays.fill(s.max, 0, rows, Float.NEGATIVE_INFINITY);
        Arrays.fill(s.sum, 0, rows, 0f);
        if (sh.inPlace && rows < G) keysInPlace(sh, k, v, mask, b, hk, i0, rows, s);
        else keysLoaded(sh, k, v, mask, b, hk, i0, rows, s);
        MemorySegment os = out.segment();
        for (int r = 0; r < rows; r++) {
            float inv = s.sum[r] > 0 ? 1f / s.sum[r] : 0f; // every key masked: zeros
            long at = out.base() + (((long) b * sh.heads + h) * sh.tq + i0 + r) * d * 4;
            for (int e = 0; e < d; e++) os.set(CpuTensor.F32, at + e * 4L, s.o[r * dp + e] * inv);
        }
    }

    /** The key walk with each key block transposed to F32 scratch, shared by every group of G rows. */
    private static void keysLoaded(
            Shape sh, CpuTensor k, CpuTensor v, CpuTensor mask, int b, int hk, int i0, int rows, Scratch s) {
        int d = sh.d, dp = sh.dp, keyEnd = keyEnd(sh, i0, rows), head = b * sh.kvHeads + hk;
        boolean cached = s.loaded.length > 0;
        if (cached && s.head != head) {
            Arrays.fill(s.loaded, false);
            s.head = head;
        }
        for (int j0 = 0; j0 < keyEnd; j0 += KB) {
            int kb = Math.min(KB, keyEnd - j0), slot = cached ? j0 / KB : 0;
            if (mask != null && hidden(mask, b, i0, rows, j0, kb)) continue;
            if (!cached || !s.loaded[slot]) {
                loadKeys(
                        k,
                        v,
                        b,
                        hk,
                        j0,
                        cached ? Math.min(KB, sh.tk - j0) : kb,
                        d,
                        dp,
                        s,
                        slot); // a cached block whole: later rows see more of it
                if (cached) s.loaded[slot] = true;
            }
            for (int r0 = 0; r0 < rows; r0 += G) {
                int g = Math.min(G, rows - r0), n = seen(sh, i0 + r0 + g - 1, j0, kb);
                if (n <= 0) continue;
                scores(s, slot * d * KB, r0, g, dp, d, n);
                softmaxGroup(sh, s, mask, b, i0, r0, g, j0, n);
                addWeightedValues(s, slot * KB * dp, r0, g, dp, n);
            }
        }
    }

    /**
     * The key walk for one group of fewer than G rows reading F32 keys and values in place. Its own
     * method, not a branch in keysLoaded, so the JIT compiles each walk for its own profile.
     */
    private static void keysInPlace(
            Shape sh, CpuTensor k, CpuTensor v, CpuTensor mask, int b, int hk, int i0, int rows, Scratch s) {
        int d = sh.d, dp = sh.dp, keyEnd = keyEnd(sh, i0, rows);
        for (int j0 = 0; j0 < keyEnd; j0 += KB) {
            int kb = Math.min(KB, keyEnd - j0);
            if (mask != null && hidden(mask, b, i0, rows, j0, kb)) continue;
            int n = seen(sh, i0 + rows - 1, j0, kb);
            if (n <= 0) continue;
            scoresInPlace(s, k, b, hk, j0, rows, dp, d, n);
            softmaxGroup(sh, s, mask, b, i0, 0, rows, j0, n);
            valuesInPlace(s, v, b, hk, j0, rows, dp, d, n);
        }
    }

    /** Keys a block of rows from i0 may see: all of them, or with causal up to its last row's. */
    private static int keyEnd(Shape sh, int i0, int rows) {
        return sh.causal ? Math.min(sh.tk, i0 + rows + sh.tk - sh.tq) : sh.tk;
    }

    /** Of the kb keys from j0, how many query i sees (causal: key j is visible when j <= i + Tk − Tq); may be <= 0. */
    private static int seen(Shape sh, int i, int j0, int kb) {
        return sh.causal ? Math.min(kb, i + sh.tk - sh.tq - j0 + 1) : kb;
    }

    /** Causal and mask terms added to the group's scores, then the online softmax step of each row. */
    private static void softmaxGroup(Shape sh, Scratch s, CpuTensor mask, int b, int i0, int r0, int g, int j0, int n) {
        for (int gi = 0; gi < g; gi++) {
            int i = i0 + r0 + gi, row = gi * KB, visible = Math.max(0, Math.min(n, seen(sh, i, j0, n)));
            Arrays.fill(s.s, row + visible, row + n, Float.NEGATIVE_INFINITY);
            if (mask != null) addMask(s.s, row, mask, b, i, j0, visible);
            softmaxStep(s, r0 + gi, gi, n);
        }
    }

    /**
     * p[row + j] += mask[b, 0, i, j0 + j] for j < n (b reads row i of a [Tq, Tk] mask: its padded batch stride is 0);
     * vectorized over a unit-stride mask row (F32, as supports requires).
     */
    private static void addMask(float[] p, int row, CpuTensor mask, int b, int i, int j0, int n) {
        long mo = mask.offset(b, 0, i, j0), ms = mask.strides()[3];
        int j = 0;
        if (ms == 1) {
            MemorySegment seg = mask.segment();
            long at = mask.base() + mo * 4;
            for (int upper = S.loopBound(n); j < upper; j += L) {
                FloatVector m = FloatVector.fromMemorySegment(S, seg, at + j * 4L, ByteOrder.nativeOrder());
                FloatVector.fromArray(S, p, row + j).add(m).intoArray(p, row + j);
            }
        }
        for (; j < n; j++) p[row + j] += mask.getFloat(mo + j * ms);
    }

    /** Whether batch element b's mask is −inf for every row i0.. of the block and every key j0..j0+kb. */
    private static boolean hidden(CpuTensor mask, int b, int i0, int rows, int j0, int kb) {
        long ms = mask.strides()[3];
        MemorySegment seg = mask.segment();
        for (int r = 0; r < rows; r++) {
            long mo = mask.offset(b, 0, i0 + r, j0);
            int j = 0;
            if (ms == 1) { // a decoder step asks this of every block of every head: vectorized
                long at = mask.base() + mo * 4;
                for (int upper = S.loopBound(kb); j < upper; j += L) {
                    FloatVector m = FloatVector.fromMemorySegment(S, seg, at + j * 4L, ByteOrder.nativeOrder());
                    if (!m.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY).allTrue()) return false;
                }
            }
            for (; j < kb; j++) if (mask.getFloat(mo + j * ms) != Float.NEGATIVE_INFINITY) return false;
        }
        return true;
    }

    /** Keys j0..j0+kb and their values into scratch slot {@code slot} (layout: Scratch). */
    private static void loadKeys(
            CpuTensor k, CpuTensor v, int b, int hk, int j0, int kb, int d, int dp, Scratch s, int slot) {
        long ks = k.strides()[3], vs = v.strides()[3];
        int kt0 = slot * d * KB, v0 = slot * KB * dp;
        if (k.dtype() == DType.F32
                && v.dtype() == DType.F32
                && ks == 1
                && vs == 1) { // rows are contiguous: bulk copies
            for (int j = 0; j < kb; j++) {
                MemorySegment.copy(k.segment(), CpuTensor.F32, k.base() + k.offset(b, hk, j0 + j, 0) * 4, s.row, 0, d);
                for (int e = 0; e < d; e++) s.kt[kt0 + e * KB + j] = s.row[e];
                MemorySegment.copy(
                        v.segment(), CpuTensor.F32, v.base() + v.offset(b, hk, j0 + j, 0) * 4, s.v, v0 + j * dp, d);
                for (int e = d; e < dp; e++) s.v[v0 + j * dp + e] = 0f;
            }
            return;
        }
        for (int j = 0; j < kb; j++) {
            long ko = k.offset(b, hk, j0 + j, 0), vo = v.offset(b, hk, j0 + j, 0);
            for (int e = 0; e < d; e++) {
                s.kt[kt0 + e * KB + j] = k.getFloat(ko + e * ks);
                s.v[v0 + j * dp + e] = v.getFloat(vo + e * vs);
            }
            for (int e = d; e < dp; e++) s.v[v0 + j * dp + e] = 0f;
        }
    }

    /**
     * s[gi * KB + j] = q_{r0+gi} · k_j (the block at kt0) for the g (<= 4) rows of a group and j < n, vectorized across
     * keys; each loaded key vector serves all rows of the group. Lanes past n hold stale values
     * and are never read.
     */
    private static void scores(Scratch s, int kt0, int r0, int g, int dp, int d, int n) {
        float[] q = s.q, kt = s.kt, out = s.s;
        int q0 = r0 * dp, q1 = q0 + dp, q2 = q1 + dp, q3 = q2 + dp;
        int j0 = 0;
        if (g == 4) { // two chunks of keys at once: eight sums in flight, where one chunk's four rows keep only four
            for (; j0 + L < n; j0 += 2 * L) {
                FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
                for (int e = 0; e < d; e++) {
                    FloatVector kv = FloatVector.fromArray(S, kt, kt0 + e * KB + j0),
                            kw = FloatVector.fromArray(S, kt, kt0 + e * KB + j0 + L);
                    FloatVector x0 = FloatVector.broadcast(S, q[q0 + e]), x1 = FloatVector.broadcast(S, q[q1 + e]);
                    FloatVector x2 = FloatVector.broadcast(S, q[q2 + e]), x3 = FloatVector.broadcast(S, q[q3 + e]);
                    a0 = kv.fma(x0, a0);
                    b0 = kw.fma(x0, b0);
                    a1 = kv.fma(x1, a1);
                    b1 = kw.fma(x1, b1);
                    a2 = kv.fma(x2, a2);
                    b2 = kw.fma(x2, b2);
                    a3 = kv.fma(x3, a3);
                    b3 = kw.fma(x3, b3);
                }
                a0.intoArray(out, j0);
                b0.intoArray(out, j0 + L);
                a1.intoArray(out, KB + j0);
                b1.intoArray(out, KB + j0 + L);
                a2.intoArray(out, 2 * KB + j0);
                b2.intoArray(out, 2 * KB + j0 + L);
                a3.intoArray(out, 3 * KB + j0);
                b3.intoArray(out, 3 * KB + j0 + L);
            }
        }
        for (int j = j0; j < n; j += L) {
            FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
            for (int e = 0; e < d; e++) {
                FloatVector kv = FloatVector.fromArray(S, kt, kt0 + e * KB + j);
                a0 = kv.fma(FloatVector.broadcast(S, q[q0 + e]), a0);
                if (g > 1) a1 = kv.fma(FloatVector.broadcast(S, q[q1 + e]), a1);
                if (g > 2) a2 = kv.fma(FloatVector.broadcast(S, q[q2 + e]), a2);
                if (g > 3) a3 = kv.fma(FloatVector.broadcast(S, q[q3 + e]), a3);
            }
            a0.intoArray(out, j);
            if (g > 1) a1.intoArray(out, KB + j);
            if (g > 2) a2.intoArray(out, 2 * KB + j);
            if (g > 3) a3.intoArray(out, 3 * KB + j);
        }
    }

    /**
     * s[gi * KB + j] = q_gi · k_{j0+j} for the g (< 4) rows of a block and j < n, each a dot product
     * along a key row read in place (F32, unit stride); each loaded key vector serves every row.
     * A row's last, partial chunk is a full load blended down to its lanes where the load stays
     * inside the segment (a masked load costs about twice as much), a masked load near its end;
     * written out here, not as a helper: a helper returning a vector that the JIT declines to
     * inline boxes the vector on every call.
     */
    private static void scoresInPlace(Scratch s, CpuTensor k, int b, int hk, int j0, int g, int dp, int d, int n) {
        MemorySegment seg = k.segment();
        long at = k.base() + k.offset(b, hk, j0, 0) * 4, stride = k.strides()[2] * 4;
        float[] q = s.q, out = s.s;
        int full = S.loopBound(d);
        VectorMask<Float> tail = S.indexInRange(full, d);
        FloatVector zero = FloatVector.zero(S);
        long blendable = seg.byteSize() - S.vectorByteSize() - full * 4L; // row starts whose tail chunk loads whole
        float[] lanes = s.lanes;
        for (int j = 0; j < n; j++, at += stride) {
            FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0;
            for (int e = 0; e < dp; e += L) { // only the last chunk may be partial
                FloatVector kv = e < full || at <= blendable
                        ? FloatVector.fromMemorySegment(S, seg, at + e * 4L, ByteOrder.nativeOrder())
                        : FloatVector.fromMemorySegment(S, seg, at + e * 4L, ByteOrder.nativeOrder(), tail);
                if (e == full) kv = zero.blend(kv, tail);
                a0 = kv.fma(FloatVector.fromArray(S, q, e), a0);
                if (g > 1) a1 = kv.fma(FloatVector.fromArray(S, q, dp + e), a1);
                if (g > 2) a2 = kv.fma(FloatVector.fromArray(S, q, 2 * dp + e), a2);
            }
            // each dot product's lanes summed in LaneSum's fixed tree: reduceLanes(ADD) adds them in another order
            // before C2 has compiled this loop than after (CrossTierDeterminismTest). With 16 lanes, eight keys'
            // vectors at a time through the vector form of the tree; a tree of lane swaps per key, or a store and a
            // scalar tree per key, made decoding steps' attention 50-70 % slower (AttentionSpeed).
            if (EIGHT_SUMS) {
                int slot = (j & 7) * 16;
                a0.intoArray(lanes, slot);
                if (g > 1) a1.intoArray(lanes, 128 + slot);
                if (g > 2) a2.intoArray(lanes, 256 + slot);
                if ((j & 7) == 7) {
                    LaneSum.ofEightSixteens(lanes, 0, out, j - 7, 1);
                    if (g > 1) LaneSum.ofEightSixteens(lanes, 128, out, KB + j - 7, 1);
                    if (g > 2) LaneSum.ofEightSixteens(lanes, 256, out, 2 * KB + j - 7, 1);
                }
            } else {
                a0.intoArray(lanes, 0);
                out[j] = LaneSum.of(lanes, 0);
                if (g > 1) {
                    a1.intoArray(lanes, 0);
                    out[KB + j] = LaneSum.of(lanes, 0);
                }
                if (g > 2) {
                    a2.intoArray(lanes, 0);
                    out[2 * KB + j] = LaneSum.of(lanes, 0);
                }
            }
        }
        if (EIGHT_SUMS)
            for (int j = n & ~7; j < n; j++) { // the last n % 8 keys, still in their slots
                int slot = (j & 7) * 16;
                out[j] = LaneSum.of(lanes, slot);
                if (g > 1) out[KB + j] = LaneSum.of(lanes, 128 + slot);
                if (g > 2) out[2 * KB + j] = LaneSum.of(lanes, 256 + slot);
            }
    }

    /**
     * Sixteen floats from {@code at + c·L·4}, the lanes past the segment's end zero (a masked load only there). Only a
     * segment's last row comes here, so a vector boxed across this call would cost nothing measurable.
     */
    private static FloatVector chunk(MemorySegment seg, long at, int c) {
        long from = at + 4L * L * c;
        long left = (seg.byteSize() - from) / 4;
        if (left >= L) return FloatVector.fromMemorySegment(S, seg, from, ByteOrder.nativeOrder());
        return FloatVector.fromMemorySegment(
                S, seg, from, ByteOrder.nativeOrder(), S.indexInRange(0, (int) Math.max(0, left)));
    }

    /**
     * addWeightedValues for a block of g (< 4) rows, reading the n value rows from j0 in place. A
     * partial chunk needs no blend: lanes past d only ever reach output lanes that are not written.
     */
    private static void valuesInPlace(Scratch s, CpuTensor v, int b, int hk, int j0, int g, int dp, int d, int n) {
        if (g == 1 && dp <= 4 * L) {
            valuesInPlaceOneRow(s, v, b, hk, j0, dp, d, n);
            return;
        }
        MemorySegment seg = v.segment();
        long first = v.base() + v.offset(b, hk, j0, 0) * 4, stride = v.strides()[2] * 4;
        float[] o = s.o, p = s.s;
        long loadable = seg.byteSize() - S.vectorByteSize(); // chunk starts that load whole
        for (int e = 0; e < dp; e += L) {
            boolean whole = e + L <= d;
            VectorMask<Float> tail = S.indexInRange(e, d);
            FloatVector a0 = FloatVector.fromArray(S, o, e).mul(s.alpha[0]);
            FloatVector a1 = g > 1 ? FloatVector.fromArray(S, o, dp + e).mul(s.alpha[1]) : a0;
            FloatVector a2 = g > 2 ? FloatVector.fromArray(S, o, 2 * dp + e).mul(s.alpha[2]) : a0;
            long at = first + e * 4L;
            for (int j = 0; j < n; j++, at += stride) {
                FloatVector vv = whole || at <= loadable
                        ? FloatVector.fromMemorySegment(S, seg, at, ByteOrder.nativeOrder())
                        : FloatVector.fromMemorySegment(S, seg, at, ByteOrder.nativeOrder(), tail);
                a0 = vv.fma(FloatVector.broadcast(S, p[j]), a0);
                if (g > 1) a1 = vv.fma(FloatVector.broadcast(S, p[KB + j]), a1);
                if (g > 2) a2 = vv.fma(FloatVector.broadcast(S, p[2 * KB + j]), a2);
            }
            a0.intoArray(o, e);
            if (g > 1) a1.intoArray(o, dp + e);
            if (g > 2) a2.intoArray(o, 2 * dp + e);
        }
    }

    /**
     * valuesInPlace for one row and up to four chunks: the chunks' sums advance together along the keys, so four
     * FMAs are in flight rather than one chain per chunk (a decoder step's whole cost after its scores).
     */
    private static void valuesInPlaceOneRow(Scratch s, CpuTensor v, int b, int hk, int j0, int dp, int d, int n) {
        MemorySegment seg = v.segment();
        long at = v.base() + v.offset(b, hk, j0, 0) * 4, stride = v.strides()[2] * 4;
        long loadable = seg.byteSize() - (long) dp * 4; // row starts whose chunks all load whole
        float[] o = s.o, p = s.s;
        float alpha = s.alpha[0];
        FloatVector a0 = FloatVector.fromArray(S, o, 0).mul(alpha);
        FloatVector a1 = dp > L ? FloatVector.fromArray(S, o, L).mul(alpha) : a0;
        FloatVector a2 = dp > 2 * L ? FloatVector.fromArray(S, o, 2 * L).mul(alpha) : a0;
        FloatVector a3 = dp > 3 * L ? FloatVector.fromArray(S, o, 3 * L).mul(alpha) : a0;
        for (int j = 0; j < n; j++, at += stride) {
            FloatVector w = FloatVector.broadcast(S, p[j]);
            if (at <= loadable) {
                a0 = FloatVector.fromMemorySegment(S, seg, at, ByteOrder.nativeOrder())
                        .fma(w, a0);
                if (dp > L)
                    a1 = FloatVector.fromMemorySegment(S, seg, at + 4L * L, ByteOrder.nativeOrder())
                            .fma(w, a1);
                if (dp > 2 * L)
                    a2 = FloatVector.fromMemorySegment(S, seg, at + 8L * L, ByteOrder.nativeOrder())
                            .fma(w, a2);
                if (dp > 3 * L)
                    a3 = FloatVector.fromMemorySegment(S, seg, at + 12L * L, ByteOrder.nativeOrder())
                            .fma(w, a3);
            } else { // the segment's last row: lanes past d only reach output lanes that are never written
                a0 = chunk(seg, at, 0).fma(w, a0);
                if (dp > L) a1 = chunk(seg, at, 1).fma(w, a1);
                if (dp > 2 * L) a2 = chunk(seg, at, 2).fma(w, a2);
                if (dp > 3 * L) a3 = chunk(seg, at, 3).fma(w, a3);
            }
        }
        a0.intoArray(o, 0);
        if (dp > L) a1.intoArray(o, L);
        if (dp > 2 * L) a2.intoArray(o, 2 * L);
        if (dp > 3 * L) a3.intoArray(o, 3 * L);
    }

    /**
     * Online softmax step for query row r over the n scores at s[gi * KB..]: replaces them by
     * exp(score − running max) (zeros while the row has seen nothing but −inf) and records in
     * alpha[gi] how much the row's running output must shrink.
     */
    private static void softmaxStep(Scratch s, int r, int gi, int n) {
        float[] p = s.s;
        int row = gi * KB;
        int upper = S.loopBound(n), j = 0;
        FloatVector vmax = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY); // a scalar Math.max chain is slower
        for (; j < upper; j += L) vmax = vmax.max(FloatVector.fromArray(S, p, row + j));
        float blockMax = vmax.reduceLanes(VectorOperators.MAX);
        for (; j < n; j++) blockMax = Math.max(blockMax, p[row + j]);
        float old = s.max[r], max = Math.max(old, blockMax);
        if (max == Float.NEGATIVE_INFINITY) { // nothing visible yet: contribute nothing
            Arrays.fill(p, row, row + n, 0f);
            s.alpha[gi] = 1f;
            return;
        }
        float alpha = old == Float.NEGATIVE_INFINITY ? 0f : ExpMath.softmaxTerm(old - max); // the terms' own exp
        float sum = ExpMath.softmaxTerms(p, row, n, max, s.lanes);
        s.max[r] = max;
        s.sum[r] = s.sum[r] * alpha + sum;
        s.alpha[gi] = alpha;
    }

    /** o_r = o_r · alpha + Σ_j p_r[j] · v_j (the block at v0) for the group's rows; each value vector is loaded once per group. */
    private static void addWeightedValues(Scratch s, int v0, int r0, int g, int dp, int n) {
        float[] o = s.o, p = s.s, v = s.v;
        int e0 = 0;
        if (g == 4) { // two chunks of the head at once: eight sums in flight, where one chunk's four rows keep only
            // four
            for (; e0 + L < dp; e0 += 2 * L) {
                int o0 = r0 * dp + e0;
                float al0 = s.alpha[0], al1 = s.alpha[1], al2 = s.alpha[2], al3 = s.alpha[3];
                FloatVector a0 = FloatVector.fromArray(S, o, o0).mul(al0),
                        b0 = FloatVector.fromArray(S, o, o0 + L).mul(al0);
                FloatVector a1 = FloatVector.fromArray(S, o, o0 + dp).mul(al1),
                        b1 = FloatVector.fromArray(S, o, o0 + dp + L).mul(al1);
                FloatVector a2 = FloatVector.fromArray(S, o, o0 + 2 * dp).mul(al2),
                        b2 = FloatVector.fromArray(S, o, o0 + 2 * dp + L).mul(al2);
                FloatVector a3 = FloatVector.fromArray(S, o, o0 + 3 * dp).mul(al3),
                        b3 = FloatVector.fromArray(S, o, o0 + 3 * dp + L).mul(al3);
                for (int j = 0; j < n; j++) {
                    int at = v0 + j * dp + e0;
                    FloatVector vv = FloatVector.fromArray(S, v, at), vw = FloatVector.fromArray(S, v, at + L);
                    FloatVector w0 = FloatVector.broadcast(S, p[j]), w1 = FloatVector.broadcast(S, p[KB + j]);
                    FloatVector w2 = FloatVector.broadcast(S, p[2 * KB + j]),
                            w3 = FloatVector.broadcast(S, p[3 * KB + j]);
                    a0 = vv.fma(w0, a0);
                    b0 = vw.fma(w0, b0);
                    a1 = vv.fma(w1, a1);
                    b1 = vw.fma(w1, b1);
                    a2 = vv.fma(w2, a2);
                    b2 = vw.fma(w2, b2);
                    a3 = vv.fma(w3, a3);
                    b3 = vw.fma(w3, b3);
                }
                a0.intoArray(o, o0);
                b0.intoArray(o, o0 + L);
                a1.intoArray(o, o0 + dp);
                b1.intoArray(o, o0 + dp + L);
                a2.intoArray(o, o0 + 2 * dp);
                b2.intoArray(o, o0 + 2 * dp + L);
                a3.intoArray(o, o0 + 3 * dp);
                b3.intoArray(o, o0 + 3 * dp + L);
            }
        }
        for (int e = e0; e < dp; e += L) {
            int o0 = r0 * dp + e;
            FloatVector a0 = FloatVector.fromArray(S, o, o0).mul(s.alpha[0]);
            FloatVector a1 = g > 1 ? FloatVector.fromArray(S, o, o0 + dp).mul(s.alpha[1]) : a0;
            FloatVector a2 = g > 2 ? FloatVector.fromArray(S, o, o0 + 2 * dp).mul(s.alpha[2]) : a0;
            FloatVector a3 = g > 3 ? FloatVector.fromArray(S, o, o0 + 3 * dp).mul(s.alpha[3]) : a0;
            for (int j = 0; j < n; j++) {
                FloatVector vv = FloatVector.fromArray(S, v, v0 + j * dp + e);
                a0 = vv.fma(FloatVector.broadcast(S, p[j]), a0);
                if (g > 1) a1 = vv.fma(FloatVector.broadcast(S, p[KB + j]), a1);
                if (g > 2) a2 = vv.fma(FloatVector.broadcast(S, p[2 * KB + j]), a2);
                if (g > 3) a3 = vv.fma(FloatVector.broadcast(S, p[3 * KB + j]), a3);
            }
            a0.intoArray(o, o0);
            if (g > 1) a1.intoArray(o, o0 + dp);
            if (g > 2) a2.intoArray(o, o0 + 2 * dp);
            if (g > 3) a3.intoArray(o, o0 + 3 * dp);
        }
    }
}
