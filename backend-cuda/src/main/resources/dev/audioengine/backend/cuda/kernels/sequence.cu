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
 * softmax(q k^T scale + mask [+ causal]) v, one block per (b, h, query). Scores for every key live in
 * dynamic shared memory (Tk floats), then q (D floats), then ROW_THREADS floats of reduction scratch.
 * k and v are F32, F16 or BF16 (kvt); query head h reads kv head h / (H / Hkv).
 */
#define ATT_THREADS 256
GC_KERNEL void ae_attention(float* GC_RESTRICT y, const float* GC_RESTRICT q, TD tq, const void* GC_RESTRICT k, TD tk,
                            const void* GC_RESTRICT v, TD tv, int kvt, const float* GC_RESTRICT mask, TD tm, float scale,
                            int causal) {
    extern GC_SHARED float smem[];
    i64 H = tq.n[1], Tq = tq.n[2], D = tq.n[3], Hkv = tk.n[1], Tk = tk.n[2];
    float* scores = smem;
    float* qs = smem + Tk;
    float* red = qs + D;
    i64 blk = gc_block(), i = blk % Tq, h = (blk / Tq) % H, b = blk / (Tq * H);
    i64 hk = h / (H / Hkv);
    const float* qr = q + b * tq.s[0] + h * tq.s[1] + i * tq.s[2];
    for (i64 p = gc_tid(); p < D; p += gc_block_dim()) qs[p] = qr[p * tq.s[3]];
    gc_sync();
    i64 kBase = b * tk.s[0] + hk * tk.s[1], vBase = b * tv.s[0] + hk * tv.s[1];
    float mx = -gc_inf();
    for (i64 j = gc_tid(); j < Tk; j += gc_block_dim()) {
        float s;
        if (causal && j > i + (Tk - Tq)) s = -gc_inf();
        else {
            float acc = 0;
            i64 kr = kBase + j * tk.s[2];
            for (i64 p = 0; p < D; p++) acc += qs[p] * ld_any(k, kvt, kr + p * tk.s[3]);
            s = acc * scale + (mask ? mask[i * tm.s[2] + j * tm.s[3]] : 0.0f);
        }
        scores[j] = s;
        mx = nan_max(mx, s);
    }
    mx = block_max(mx, red);
    float* yr = y + ((b * H + h) * Tq + i) * D;
    if (mx == -gc_inf()) { // this query sees no key
        for (i64 p = gc_tid(); p < D; p += gc_block_dim()) yr[p] = 0.0f;
        return;
    }
    float acc = 0;
    for (i64 j = gc_tid(); j < Tk; j += gc_block_dim()) { float e = expf(scores[j] - mx); scores[j] = e; acc += e; }
    float inv = 1.0f / block_sum(acc, red); // block_sum synchronizes, so every score is written
    for (i64 p = gc_tid(); p < D; p += gc_block_dim()) {
        float o = 0;
        for (i64 j = 0; j < Tk; j++) o += scores[j] * ld_any(v, kvt, vBase + j * tv.s[2] + p * tv.s[3]);
        yr[p] = o * inv;
    }
}

/**
 * One LSTM layer, one block per batch element, the time loop inside the kernel. x [B, T, I] through tx
 * (padded [1, B, T, I]); weights, biases and initial states contiguous. Shared: h, c (H each), gates (4H).
 * y [2, B, T, H]: hidden sequence then cell sequence.
 */
GC_KERNEL void ae_lstm(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT wih,
                       const float* GC_RESTRICT whh, const float* GC_RESTRICT bih, const float* GC_RESTRICT bhh,
                       const float* GC_RESTRICT h0, const float* GC_RESTRICT c0, i64 B, i64 T, i64 I, i64 H) {
    extern GC_SHARED float smem[];
    float* hs = smem;
    float* cs = hs + H;
    float* gates = cs + H;
    i64 b = gc_block();
    for (i64 j = gc_tid(); j < H; j += gc_block_dim()) { hs[j] = h0[b * H + j]; cs[j] = c0[b * H + j]; }
    gc_sync();
    for (i64 t = 0; t < T; t++) {
        const float* xr = x + b * tx.s[1] + t * tx.s[2];
        for (i64 g = gc_tid(); g < 4 * H; g += gc_block_dim()) {
            float s = bih[g] + bhh[g];
            const float* wi = wih + g * I;
            for (i64 p = 0; p < I; p++) s += wi[p] * xr[p * tx.s[3]];
            const float* wh = whh + g * H;
            for (i64 p = 0; p < H; p++) s += wh[p] * hs[p];
            gates[g] = s;
        }
        gc_sync();
        for (i64 j = gc_tid(); j < H; j += gc_block_dim()) {
            float ig = sigmoid_f(gates[j]), fg = sigmoid_f(gates[H + j]);
            float gg = tanhf(gates[2 * H + j]), og = sigmoid_f(gates[3 * H + j]);
            float c = fg * cs[j] + ig * gg;
            float h = og * tanhf(c);
            cs[j] = c;
            hs[j] = h;
            i64 o = (b * T + t) * H + j;
            y[o] = h;
            y[B * T * H + o] = c;
        }
        gc_sync();
    }
}
