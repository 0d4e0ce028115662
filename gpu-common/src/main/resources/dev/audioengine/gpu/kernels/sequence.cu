// get_rows, rope, fused attention and lstm.
#include "ae_tensor.h"

/**
 * y [ids..., D] = table[id, :]. ttab padded [1, 1, V, D]; tids is the ids' view. An id outside [0, V)
 * yields NaN for its whole row (a kernel cannot throw; the NaN makes the bad lookup visible).
 */
GC_KERNEL void ae_get_rows(i64 n, float* GC_RESTRICT y, const void* GC_RESTRICT table, int tt, TD ttab,
                           const int* GC_RESTRICT ids, TD tids) {
    i64 D = ttab.n[3], V = ttab.n[2];
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 r = i / D, c = i % D;
        i64 id = ids[td_off(tids, r)];
        y[i] = (id < 0 || id >= V) ? gc_nan() : ld_any(table, tt, id * ttab.s[2] + c * ttab.s[3]);
    }
}

/** Rotary embedding on x [B, H, T, D] (y contiguous); angles in double so large positions keep their accuracy. */
GC_KERNEL void ae_rope(i64 n, float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const int* GC_RESTRICT pos,
                       i64 posStride, int dims, float base, int neox) {
    i64 D = tx.n[3], T = tx.n[2];
    int half = dims / 2;
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 d = i % D, t = (i / D) % T;
        i64 off = td_off(tx, i);
        if (d >= dims) { y[i] = x[off]; continue; }
        int p; bool first; i64 other;
        if (neox) { p = d < half ? (int) d : (int) d - half; first = d < half; other = first ? d + half : d - half; }
        else { p = (int) (d / 2); first = (d % 2) == 0; other = first ? d + 1 : d - 1; }
        double theta = (double) pos[t * posStride] * pow((double) base, -2.0 * p / dims);
        double s, c;
        gc_sincos_d(theta, &s, &c);
        double a = x[off], b = x[off + (other - d) * tx.s[3]];
        y[i] = first ? (float) (a * c - b * s) : (float) (b * s + a * c);
    }
}

/**
 * softmax(q k^T scale + mask [+ causal]) v, flash-attention style. One block of 256 threads per
 * (b, h, tile of ATT_QT queries); keys in tiles of ATT_KT, each K/V tile loaded once into shared
 * memory (as F32) and used by every query of the block; an online softmax per query (running max m,
 * sum l, the accumulator rescaled by exp(m_old - m_new) when the max grows), so memory does not
 * grow with Tk. Dynamic shared memory, in floats: q and the accumulator (ATT_QT*D each), K (ATT_KT*(D+1),
 * padded against bank conflicts), V (ATT_KT*D), the score tile (ATT_QT*ATT_KT) and 3*ATT_QT per-query
 * values. k and v are F32, F16 or BF16 (kvt); query head h reads kv head h / (H / Hkv). The optional additive mask
 * is [Tq, Tk] for every batch element (padded to rank 4 with stride 0) or [B, 1, Tq, Tk], batch element b's rows at
 * b * tm.s[0] (a batched decoder step: sequences of different lengths), every head reading the same rows.
 */
#define ATT_QT 16
#define ATT_KT 64
// Launched with 256 threads (Binding.THREADS): each thread scores one key of the tile for ATT_QT * ATT_KT / 256 = 4
// queries (one K row read from shared memory serves four dots), and 16 threads share each query's softmax row.
#define ATT_THREADS 256
#define ATT_QPT (ATT_QT * ATT_KT / ATT_THREADS)
#define ATT_SOFTMAX_LANES (ATT_THREADS / ATT_QT)
// four blocks a multiprocessor (64 registers a thread): at 72 the compiler's choice, three fit, and a batched
// encoder's 500-odd blocks took two waves on an H100's 132 multiprocessors instead of one
GC_KERNEL void GC_BOUNDS(ATT_THREADS, 4) ae_attention(float* GC_RESTRICT y, const float* GC_RESTRICT q, TD tq, const void* GC_RESTRICT k, TD tk,
                            const void* GC_RESTRICT v, TD tv, int kvt, const float* GC_RESTRICT mask, TD tm, float scale,
                            int causal) {
    extern GC_SHARED float smem[];
    i64 H = tq.n[1], Tq = tq.n[2], Hkv = tk.n[1], Tk = tk.n[2];
    // the head size and the tile indices fit an int: 32-bit index arithmetic (a 64-bit division per element cost more
    // than the element's work)
    int D = (int) tq.n[3];
    i64 qTiles = (Tq + ATT_QT - 1) / ATT_QT;
    i64 blk = gc_block(), qt = blk % qTiles, h = (blk / qTiles) % H, b = blk / (qTiles * H);
    i64 hk = h / (H / Hkv), i0 = qt * ATT_QT;
    int kd = D + 1;
    GC_SHARED int tileSeen;              // some query of the block sees some key of the tile
    float* qs = smem;                    // [ATT_QT][D]
    float* acc = qs + ATT_QT * D;        // [ATT_QT][D]
    float* ks = acc + ATT_QT * D;        // [ATT_KT][D + 1]
    float* vs = ks + ATT_KT * kd;        // [ATT_KT][D]
    float* sc = vs + ATT_KT * D;         // [ATT_QT][ATT_KT]
    float* mrow = sc + ATT_QT * ATT_KT;  // running max per query
    float* lrow = mrow + ATT_QT;         // running sum per query
    float* arow = lrow + ATT_QT;         // this tile's rescale factor per query
    int tid = gc_tid(), lane = tid % GC_WARP_SIZE, warp = tid / GC_WARP_SIZE, warps = ATT_THREADS / GC_WARP_SIZE;
    for (int qi = warp; qi < ATT_QT; qi += warps) {
        i64 i = i0 + qi;
        for (int d = lane; d < D; d += GC_WARP_SIZE) {
            qs[qi * D + d] = i < Tq ? q[b * tq.s[0] + h * tq.s[1] + i * tq.s[2] + d * tq.s[3]] : 0.0f;
            acc[qi * D + d] = 0.0f;
        }
    }
    if (tid < ATT_QT) { mrow[tid] = -gc_inf(); lrow[tid] = 0.0f; }
    i64 iLast = (i0 + ATT_QT < Tq ? i0 + ATT_QT : Tq) - 1;
    // keys past the last query's causal limit are masked for the whole block
    i64 limit = causal ? iLast + (Tk - Tq) + 1 : Tk;
    if (limit > Tk) limit = Tk;
    i64 kBase = b * tk.s[0] + hk * tk.s[1], vBase = b * tv.s[0] + hk * tv.s[1];
    const float* mb = mask ? mask + b * tm.s[0] : mask; // a [Tq, Tk] mask has s[0] == 0: every batch element's
    int jt = tid % ATT_KT, qb = tid / ATT_KT;            // the score this thread computes: key jt, queries qb + 4 r
    int sq = tid / ATT_SOFTMAX_LANES, sl = tid % ATT_SOFTMAX_LANES; // the softmax row this thread shares, its lane
    for (i64 j0 = 0; j0 < limit; j0 += ATT_KT) {
        int count = (int) (limit - j0 < ATT_KT ? limit - j0 : ATT_KT);
        gc_sync(); // the previous tile's K, V and scores are no longer read
        if (mb) {
            // a tile the mask hides from every query of the block leaves m, l and acc as they are (its weights are
            // exp(-inf) = 0 and its rescale 1), so its keys and values are not read: a batched encoder's windows
            // padded to the longest one hide the padding's keys (docs/PERFORMANCE.md)
            if (tid == 0) tileSeen = 0;
            gc_sync();
            for (int r = 0; r < ATT_QPT; r++) {
                i64 i = i0 + qb + r * (ATT_THREADS / ATT_KT);
                if (jt < count && i < Tq && mb[i * tm.s[2] + (j0 + jt) * tm.s[3]] != -gc_inf()) tileSeen = 1;
            }
            gc_sync();
            if (!tileSeen) continue;
        }
        for (int j = warp; j < ATT_KT; j += warps) {
            bool in = j < count;
            i64 kr = kBase + (j0 + j) * tk.s[2], vr = vBase + (j0 + j) * tv.s[2];
            for (int d = lane; d < D; d += GC_WARP_SIZE) {
                ks[j * kd + d] = in ? ld_basic(k, kvt, kr + d * tk.s[3]) : 0.0f;
                vs[j * D + d] = in ? ld_basic(v, kvt, vr + d * tv.s[3]) : 0.0f;
            }
        }
        gc_sync();
        {
            float dot[ATT_QPT];
            for (int r = 0; r < ATT_QPT; r++) dot[r] = 0.0f;
            const float* kr = ks + jt * kd;
            for (int d = 0; d < D; d++) {
                float kv = kr[d];
                for (int r = 0; r < ATT_QPT; r++) dot[r] += qs[(qb + r * (ATT_THREADS / ATT_KT)) * D + d] * kv;
            }
            i64 jj = j0 + jt;
            for (int r = 0; r < ATT_QPT; r++) {
                int qi = qb + r * (ATT_THREADS / ATT_KT);
                i64 i = i0 + qi;
                float s = -gc_inf();
                if (i < Tq && jt < count && !(causal && jj > i + (Tk - Tq)))
                    s = dot[r] * scale + (mb ? mb[i * tm.s[2] + jj * tm.s[3]] : 0.0f);
                sc[qi * ATT_KT + jt] = s;
            }
        }
        gc_sync();
        {
            // query sq's row: its 16 lanes take keys sl, sl + 16, ...; max and sum across the lanes by shuffles (a
            // 16-lane group never crosses a warp of 32 or 64 lanes, and every lane of the block takes part)
            float* row = sc + sq * ATT_KT;
            float mt = -gc_inf();
            for (int j = sl; j < ATT_KT; j += ATT_SOFTMAX_LANES) mt = nan_max(mt, row[j]);
            for (int m = ATT_SOFTMAX_LANES / 2; m > 0; m >>= 1) mt = nan_max(mt, gc_shfl_xor(mt, m));
            float mOld = mrow[sq], mNew = nan_max(mOld, mt);
            float sum = 0;
            if (mNew == -gc_inf()) { // nothing visible yet for this query
                for (int j = sl; j < ATT_KT; j += ATT_SOFTMAX_LANES) row[j] = 0.0f;
            } else {
                for (int j = sl; j < ATT_KT; j += ATT_SOFTMAX_LANES) { float p = expf(row[j] - mNew); row[j] = p; sum += p; }
            }
            for (int m = ATT_SOFTMAX_LANES / 2; m > 0; m >>= 1) sum += gc_shfl_xor(sum, m);
            if (sl == 0) {
                if (mNew == -gc_inf()) {
                    arow[sq] = 1.0f;
                } else {
                    float a = expf(mOld - mNew);
                    arow[sq] = a;
                    lrow[sq] = lrow[sq] * a + sum;
                    mrow[sq] = mNew;
                }
            }
        }
        gc_sync();
        // two queries per warp pass share each V element read from shared memory
        for (int qi = warp; qi < ATT_QT; qi += 2 * warps) {
            int q2 = qi + warps;
            const float* p1 = sc + qi * ATT_KT;
            const float* p2 = sc + q2 * ATT_KT;
            for (int d = lane; d < D; d += GC_WARP_SIZE) {
                float o1 = 0, o2 = 0;
                for (int j = 0; j < count; j++) {
                    float vv = vs[j * D + d];
                    o1 += p1[j] * vv;
                    o2 += p2[j] * vv;
                }
                acc[qi * D + d] = acc[qi * D + d] * arow[qi] + o1;
                acc[q2 * D + d] = acc[q2 * D + d] * arow[q2] + o2;
            }
        }
    }
    gc_sync();
    for (int qi = warp; qi < ATT_QT; qi += warps) {
        i64 i = i0 + qi;
        if (i >= Tq) continue;
        float l = lrow[qi];
        // l == 0: this query sees no key, its output is zeros; NaN scores propagate through acc and l
        for (int d = lane; d < D; d += GC_WARP_SIZE)
            y[((b * H + h) * Tq + i) * D + d] = l > 0 ? acc[qi * D + d] / l : (gc_isnan(l) ? gc_nan() : 0.0f);
    }
}

/**
 * The same attention for few queries (a decoder step: Tq <= ATT_DECODE_MAX_TQ), split over the keys
 * (flash-decoding): the tiled kernel above gives a step one block per head, which walks the whole cache, and one
 * block per query row (eight heads: eight blocks) still left an H200 idle. Here block (row, s) takes keys
 * [s * ATT_SPLIT_KEYS, (s + 1) * ATT_SPLIT_KEYS) of query row (b, h, i): each warp scores keys with its lanes along
 * the head dimension (coalesced rows), the block takes the split's max m, its sum l of exp(score - m) and its
 * unnormalized output o = sum exp(score - m) v, and writes [m, l, o] to part[(row * S + s) * (D + 2)].
 * ae_attention_merge then rescales the splits to their common max and divides. Same masking, causal rule, zero
 * rows and NaN propagation as ae_attention. Needs D <= the block's threads.
 * <p>
 * Keys the mask hides with -inf add exp(-inf) = 0 to every sum, so their keys and values are not read, and a split
 * with no visible key writes its empty part at once: a batched step's caches are mostly hidden capacity (a window's
 * cross keys past its frames, the self cache past each position, slots at length 0), and reading them all made this
 * kernel the largest of a 64-sequence step (docs/PERFORMANCE.md).
 */
#define ATT_DECODE_MAX_TQ 4
#define ATT_SPLIT_KEYS 32
GC_KERNEL void ae_attention_split(const float* GC_RESTRICT q, TD tq, const void* GC_RESTRICT k, TD tk,
                                  const void* GC_RESTRICT v, TD tv, int kvt, const float* GC_RESTRICT mask, TD tm, float scale,
                                  int causal, float* GC_RESTRICT part, i64 S) {
    extern GC_SHARED float smem[];
    GC_SHARED int seen[ATT_SPLIT_KEYS]; // key jj of the split is visible: in range, causal, not hidden by -inf
    GC_SHARED int anySeen;
    i64 H = tq.n[1], Tq = tq.n[2], D = tq.n[3], Hkv = tk.n[1], Tk = tk.n[2];
    i64 blk = gc_block(), split = blk % S, row = blk / S;
    i64 i = row % Tq, h = (row / Tq) % H, b = row / (Tq * H), hk = h / (H / Hkv);
    int tid = gc_tid(), nt = gc_block_dim(), lane = tid % GC_WARP_SIZE, warp = tid / GC_WARP_SIZE, warps = nt / GC_WARP_SIZE;
    float* qs = smem;                // [D]
    float* sc = qs + D;              // [ATT_SPLIT_KEYS]
    float* red = sc + ATT_SPLIT_KEYS; // [nt]: the warps' reductions, then the value parts
    i64 kBase = b * tk.s[0] + hk * tk.s[1], vBase = b * tv.s[0] + hk * tv.s[1];
    i64 mRow = b * tm.s[0] + i * tm.s[2]; // this query's mask row, as in ae_attention
    i64 j0 = split * ATT_SPLIT_KEYS, n = Tk - j0 < ATT_SPLIT_KEYS ? Tk - j0 : ATT_SPLIT_KEYS;
    i64 last = causal ? i + (Tk - Tq) : Tk - 1; // the last key this query may see
    if (tid == 0) anySeen = 0;
    gc_sync();
    if (tid < ATT_SPLIT_KEYS) {
        i64 j = j0 + tid;
        int visible = tid < n && j <= last && !(mask && mask[mRow + j * tm.s[3]] == -gc_inf());
        seen[tid] = visible;
        if (visible) anySeen = 1;
    }
    gc_sync();
    if (!anySeen) { // what the sums below give when every score is -inf: m = -inf, l = 0, o = 0
        float* out = part + (row * S + split) * (D + 2);
        if (tid == 0) { out[0] = -gc_inf(); out[1] = 0.0f; }
        for (i64 e = tid; e < D; e += nt) out[2 + e] = 0.0f;
        return;
    }
    for (i64 d = tid; d < D; d += nt) qs[d] = q[b * tq.s[0] + h * tq.s[1] + i * tq.s[2] + d * tq.s[3]];
    gc_sync();
    for (i64 jj = warp; jj < ATT_SPLIT_KEYS; jj += warps) {
        i64 j = j0 + jj;
        float dot = 0;
        if (seen[jj]) for (i64 d = lane; d < D; d += GC_WARP_SIZE) dot += qs[d] * ld_basic(k, kvt, kBase + j * tk.s[2] + d * tk.s[3]);
        for (int m = GC_WARP_SIZE / 2; m > 0; m >>= 1) dot += gc_shfl_xor(dot, m);
        if (lane == 0) sc[jj] = seen[jj] ? dot * scale + (mask ? mask[mRow + j * tm.s[3]] : 0.0f) : -gc_inf();
    }
    gc_sync();
    float m = block_max(tid < ATT_SPLIT_KEYS ? sc[tid] : -gc_inf(), red);
    float p = 0;
    if (tid < ATT_SPLIT_KEYS) {
        p = m == -gc_inf() ? 0.0f : expf(sc[tid] - m); // nothing visible in this split: every weight 0
        sc[tid] = p;
    }
    float l = block_sum(p, red); // its barriers also publish sc
    i64 parts = nt / D, d = tid % D, piece = tid / D;
    float o = 0;
    if (piece < parts) for (i64 jj = piece; jj < n; jj += parts) if (seen[jj]) o += sc[jj] * ld_basic(v, kvt, vBase + (j0 + jj) * tv.s[2] + d * tv.s[3]);
    red[tid] = o;
    gc_sync();
    float* out = part + (row * S + split) * (D + 2);
    if (tid == 0) { out[0] = m; out[1] = l; }
    for (i64 e = tid; e < D; e += nt) {
        float sum = 0;
        for (i64 q2 = 0; q2 < parts; q2++) sum += red[q2 * D + e];
        out[2 + e] = sum;
    }
}

/**
 * y[row, :] from the S splits ae_attention_split wrote for each query row: every split's l and o scaled by
 * exp(m_s - M) for the rows' max M, summed, divided. A row no key is visible to gets zeros; a NaN score's NaN
 * reaches M and so the row.
 */
GC_KERNEL void ae_attention_merge(float* GC_RESTRICT y, const float* GC_RESTRICT part, i64 S, i64 D) {
    extern GC_SHARED float smem[];
    i64 row = gc_block();
    int tid = gc_tid(), nt = gc_block_dim();
    const float* rp = part + row * S * (D + 2);
    float M = -gc_inf();
    for (i64 s = tid; s < S; s += nt) M = nan_max(M, rp[s * (D + 2)]);
    M = block_max(M, smem);
    for (i64 d = tid; d < D; d += nt) {
        float l = 0, o = 0;
        for (i64 s = 0; s < S; s++) {
            float ms = rp[s * (D + 2)];
            float w = (ms == -gc_inf() || M == -gc_inf()) ? 0.0f : expf(ms - M);
            l += w * rp[s * (D + 2) + 1];
            o += w * rp[s * (D + 2) + 2 + d];
        }
        y[row * D + d] = gc_isnan(M) ? gc_nan() : (l > 0 ? o / l : (gc_isnan(l) ? gc_nan() : 0.0f));
    }
}

/**
 * Step t of the hidden units this warp owns (j = first, first + stride, ...; the same j for a whole warp, so
 * whole warps take each iteration and the shuffles see full warps): the four gate rows of w_hh against h[t-1]
 * (hp, in shared memory), read along the row and reduced across the warp; lane 0 adds the projection xr and the
 * biases, updates the cell and writes h[t] and c[t] into y. Shared by ae_lstm_step and ae_lstm_seq.
 */
GC_DEVICE void lstm_units(float* GC_RESTRICT y, const float* GC_RESTRICT xr, const float* GC_RESTRICT whh,
                          const float* GC_RESTRICT bih, const float* GC_RESTRICT bhh, const float* GC_RESTRICT c0,
                          const float* hp, i64 B, i64 T, i64 H, i64 b, i64 t, i64 first, i64 stride, int lane) {
    for (i64 j = first; j < H; j += stride) {
        float si = 0, sf = 0, sg = 0, so = 0;
        const float* wi = whh + j * H;
        const float* wf = whh + (H + j) * H;
        const float* wg = whh + (2 * H + j) * H;
        const float* wo = whh + (3 * H + j) * H;
        for (i64 p = lane; p < H; p += GC_WARP_SIZE) {
            float h = hp[p];
            si += wi[p] * h;
            sf += wf[p] * h;
            sg += wg[p] * h;
            so += wo[p] * h;
        }
        for (int m = GC_WARP_SIZE / 2; m > 0; m >>= 1) {
            si += gc_shfl_xor(si, m);
            sf += gc_shfl_xor(sf, m);
            sg += gc_shfl_xor(sg, m);
            so += gc_shfl_xor(so, m);
        }
        if (lane == 0) {
            float ig = sigmoid_f(xr[j] + bih[j] + bhh[j] + si);
            float fg = sigmoid_f(xr[H + j] + bih[H + j] + bhh[H + j] + sf);
            float gg = tanhf(xr[2 * H + j] + bih[2 * H + j] + bhh[2 * H + j] + sg);
            float og = sigmoid_f(xr[3 * H + j] + bih[3 * H + j] + bhh[3 * H + j] + so);
            // unit j stays with this warp for every step: its own cell value from the last step
            float cPrev = t == 0 ? c0[b * H + j] : y[B * T * H + (b * T + t - 1) * H + j];
            float c = fg * cPrev + ig * gg;
            i64 o = (b * T + t) * H + j;
            y[o] = og * tanhf(c);
            y[B * T * H + o] = c;
        }
    }
}

/**
 * Step t of an LSTM layer for every batch item. The input projection xg [B, T, 4H] (x . w_ih^T, all
 * steps at once, before the recurrence) is read, not recomputed; this step adds the biases and
 * w_hh . h[t-1], where h[t-1] and c[t-1] are y's rows t-1 (h0 and c0 at t = 0), so steps need no state
 * of their own. One warp per hidden unit: its four gate rows of w_hh are read along the row (coalesced)
 * and reduced across the warp; units spread over blocks, grid (ceil(H / warps per block), B), so every
 * SM streams its share of w_hh. Shared: h[t-1] (H floats). y [2, B, T, H]: hidden then cell sequence.
 */
GC_KERNEL void ae_lstm_step(float* GC_RESTRICT y, const float* GC_RESTRICT xg, const float* GC_RESTRICT whh,
                            const float* GC_RESTRICT bih, const float* GC_RESTRICT bhh, const float* GC_RESTRICT h0,
                            const float* GC_RESTRICT c0, i64 B, i64 T, i64 H, i64 t) {
    extern GC_SHARED float hp[];
    i64 b = gc_block_y();
    const float* hsrc = t == 0 ? h0 + b * H : y + (b * T + t - 1) * H;
    for (i64 p = gc_tid(); p < H; p += gc_block_dim()) hp[p] = hsrc[p];
    gc_sync();
    int lane = gc_tid() % GC_WARP_SIZE, warp = gc_tid() / GC_WARP_SIZE, warps = gc_block_dim() / GC_WARP_SIZE;
    i64 unitStride = (gc_global_stride() / gc_block_dim()) * warps; // the host sizes the grid for 32-lane warps
    const float* xr = xg + (b * T + t) * 4 * H;
    lstm_units(y, xr, whh, bih, bhh, c0, hp, B, T, H, b, t, gc_block() * warps + warp, unitStride, lane);
}

/**
 * A whole LSTM layer's recurrence in one launch, after the projection GEMM: ae_lstm_step's layout (a warp per
 * hidden unit, h[t-1] from y's row t-1) with the blocks of one batch item meeting at a grid barrier after every
 * step, instead of one launch per step (Kokoro: ~900 launches a sentence, a third of all). Grid (blocks, B); the
 * host keeps blocks x B small enough to be resident at once and uses this kernel only where it is verified.
 * barrier: B counters, zeroed before the launch.
 */
GC_KERNEL void ae_lstm_seq(float* GC_RESTRICT y, const float* GC_RESTRICT xg, const float* GC_RESTRICT whh,
                           const float* GC_RESTRICT bih, const float* GC_RESTRICT bhh, const float* GC_RESTRICT h0,
                           const float* GC_RESTRICT c0, i64 B, i64 T, i64 H, u32* barrier) {
    extern GC_SHARED float hp[];
    i64 b = gc_block_y();
    int lane = gc_tid() % GC_WARP_SIZE, warp = gc_tid() / GC_WARP_SIZE, warps = gc_block_dim() / GC_WARP_SIZE;
    i64 blocks = gc_global_stride() / gc_block_dim();
    i64 unitStride = blocks * warps;
    for (i64 t = 0; t < T; t++) {
        // h[t-1] was written by every block in the last step: read past any stale cache line
        if (t == 0) for (i64 p = gc_tid(); p < H; p += gc_block_dim()) hp[p] = h0[b * H + p];
        else for (i64 p = gc_tid(); p < H; p += gc_block_dim()) hp[p] = gc_load_coherent(y + (b * T + t - 1) * H + p);
        gc_sync();
        const float* xr = xg + (b * T + t) * 4 * H;
        lstm_units(y, xr, whh, bih, bhh, c0, hp, B, T, H, b, t, gc_block() * warps + warp, unitStride, lane);
        gc_grid_barrier(barrier + b, (u32) ((t + 1) * blocks));
    }
}

/**
 * The additive mask of caches holding length[b * lengthStride] keys: 0 where query q sees key j, -inf elsewhere
 * (Op.KeyMask). n = B * tq * tk elements, [tq, tk] per batch element: [tq, tk] for one length, [B, 1, tq, tk] for B.
 */
GC_KERNEL void ae_key_mask(int causal, i64 n, i64 tq, i64 tk, const int* GC_RESTRICT length, i64 lengthStride,
                           float* GC_RESTRICT y) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 r = i / tk, j = i % tk, q = r % tq, b = r / tq;
        i64 len = (i64) length[b * lengthStride];
        i64 visible = causal ? len - (tq - 1 - q) : len;
        y[i] = j < visible ? 0.0f : -gc_inf();
    }
}
