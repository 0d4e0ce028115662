// Row-wise ops over a view whose last axis is the row (reduced axes are moved last on the host):
// layer_norm, rms_norm, softmax, sum/mean/max, argmax; and group_norm. One block of 256 per row.
#include "ae_tensor.h"

#define ROW_THREADS 256

GC_KERNEL void ae_layer_norm(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT gamma,
                             const float* GC_RESTRICT beta, float eps) {
    GC_SHARED float sh[ROW_THREADS];
    i64 r = gc_block(), n = tx.n[3], s = tx.s[3];
    const float* xr = x + td_row(tx, r);
    float acc = 0;
    for (i64 i = gc_tid(); i < n; i += gc_block_dim()) acc += xr[i * s];
    float mean = block_sum(acc, sh) / (float) n;
    acc = 0;
    for (i64 i = gc_tid(); i < n; i += gc_block_dim()) { float d = xr[i * s] - mean; acc += d * d; }
    float inv = 1.0f / sqrtf(block_sum(acc, sh) / (float) n + eps);
    for (i64 i = gc_tid(); i < n; i += gc_block_dim()) {
        float v = (xr[i * s] - mean) * inv;
        if (gamma) v *= gamma[i];
        if (beta) v += beta[i];
        y[r * n + i] = v;
    }
}

GC_KERNEL void ae_rms_norm(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT gamma, float eps) {
    GC_SHARED float sh[ROW_THREADS];
    i64 r = gc_block(), n = tx.n[3], s = tx.s[3];
    const float* xr = x + td_row(tx, r);
    float acc = 0;
    for (i64 i = gc_tid(); i < n; i += gc_block_dim()) { float v = xr[i * s]; acc += v * v; }
    float inv = 1.0f / sqrtf(block_sum(acc, sh) / (float) n + eps);
    for (i64 i = gc_tid(); i < n; i += gc_block_dim()) y[r * n + i] = xr[i * s] * inv * (gamma ? gamma[i] : 1.0f);
}

/** softmax(x*scale + mask) per row; tm is the mask broadcast to x's dims (stride 0 where broadcast). */
GC_KERNEL void ae_softmax(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT mask, TD tm, float scale) {
    GC_SHARED float sh[ROW_THREADS];
    i64 r = gc_block(), n = tx.n[3];
    const float* xr = x + td_row(tx, r);
    const float* mr = mask ? mask + td_row(tm, r) : 0;
    float mx = -gc_inf();
    for (i64 i = gc_tid(); i < n; i += gc_block_dim()) mx = nan_max(mx, xr[i * tx.s[3]] * scale + (mr ? mr[i * tm.s[3]] : 0.0f));
    mx = block_max(mx, sh);
    if (mx == -gc_inf()) { // every position masked: nothing may be attended to
        for (i64 i = gc_tid(); i < n; i += gc_block_dim()) y[r * n + i] = 0.0f;
        return;
    }
    float acc = 0;
    for (i64 i = gc_tid(); i < n; i += gc_block_dim()) acc += expf(xr[i * tx.s[3]] * scale + (mr ? mr[i * tm.s[3]] : 0.0f) - mx);
    float inv = 1.0f / block_sum(acc, sh);
    for (i64 i = gc_tid(); i < n; i += gc_block_dim())
        y[r * n + i] = expf(xr[i * tx.s[3]] * scale + (mr ? mr[i * tm.s[3]] : 0.0f) - mx) * inv;
}

#define RED_SUM 0
#define RED_MEAN 1
#define RED_MAX 2

GC_KERNEL void ae_reduce(int kind, float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx) {
    GC_SHARED float sh[ROW_THREADS];
    i64 r = gc_block(), n = tx.n[3], s = tx.s[3];
    const float* xr = x + td_row(tx, r);
    float v;
    if (kind == RED_MAX) {
        float acc = -gc_inf();
        for (i64 i = gc_tid(); i < n; i += gc_block_dim()) acc = nan_max(acc, xr[i * s]);
        v = block_max(acc, sh);
    } else {
        float acc = 0;
        for (i64 i = gc_tid(); i < n; i += gc_block_dim()) acc += xr[i * s];
        v = block_sum(acc, sh);
        if (kind == RED_MEAN) v = v / (float) n;
    }
    if (gc_tid() == 0) y[r] = v;
}

/** (a, ia) beats (b, ib): NaN is largest, then the larger value, then the smaller index. */
GC_DEVICE bool argmax_wins(float a, i64 ia, float b, i64 ib) {
    bool na = gc_isnan(a), nb = gc_isnan(b);
    if (na != nb) return na;
    if (!na && a != b) return a > b;
    return ia < ib;
}

GC_KERNEL void ae_argmax(int* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx) {
    GC_SHARED float sv[ROW_THREADS];
    GC_SHARED i64 si[ROW_THREADS];
    i64 r = gc_block(), n = tx.n[3], s = tx.s[3];
    const float* xr = x + td_row(tx, r);
    int t = gc_tid();
    float bv = 0;
    i64 bi = -1;
    for (i64 i = t; i < n; i += gc_block_dim()) {
        float v = xr[i * s];
        if (bi < 0 || argmax_wins(v, i, bv, bi)) { bv = v; bi = i; }
    }
    sv[t] = bv;
    si[t] = bi;
    gc_sync();
    for (int h = gc_block_dim() / 2; h > 0; h >>= 1) {
        if (t < h && si[t + h] >= 0 && (si[t] < 0 || argmax_wins(sv[t + h], si[t + h], sv[t], si[t]))) {
            sv[t] = sv[t + h];
            si[t] = si[t + h];
        }
        gc_sync();
    }
    if (t == 0) y[r] = (int) si[0];
}

/**
 * x [B, C, ...] (tx its natural padded view); one block per (batch, group). gamma/beta contiguous [C] or null.
 * dense: x is contiguous, so element i of the row is x[base + i], without td_off's divisions per element (they
 * cost more than the kernel's three reads of x on Kokoro's long instance norms: docs/PERFORMANCE-cuda.md).
 */
GC_KERNEL void ae_group_norm(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT gamma,
                             const float* GC_RESTRICT beta, i64 C, i64 spatial, int groups, float eps, int dense) {
    GC_SHARED float sh[ROW_THREADS];
    i64 bg = gc_block(), b = bg / groups, g = bg % groups;
    i64 per = C / groups, count = per * spatial, base = (b * C + g * per) * spatial;
    const float* xr = x + base;
#define GN_X(i) (dense ? xr[i] : x[td_off(tx, base + (i))])
    float acc = 0;
    for (i64 i = gc_tid(); i < count; i += gc_block_dim()) acc += GN_X(i);
    float mean = block_sum(acc, sh) / (float) count;
    acc = 0;
    for (i64 i = gc_tid(); i < count; i += gc_block_dim()) { float d = GN_X(i) - mean; acc += d * d; }
    float inv = 1.0f / sqrtf(block_sum(acc, sh) / (float) count + eps);
    for (i64 i = gc_tid(); i < count; i += gc_block_dim()) {
        float v = (GN_X(i) - mean) * inv;
        if (gamma) { i64 ch = g * per + i / spatial; v = v * gamma[ch] + beta[ch]; }
        y[base + i] = v;
    }
#undef GN_X
}
