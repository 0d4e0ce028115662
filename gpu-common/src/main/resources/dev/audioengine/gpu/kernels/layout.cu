// Strided copies (contiguous, concat pieces), pad and casts.
#include "ae_tensor.h"

/** y[ty(i)] = x[tx(i)] for elements of elemBytes bytes (a block of a block type counts as one element). */
GC_KERNEL void ae_copy(int elemBytes, i64 n, void* GC_RESTRICT y, TD ty, const void* GC_RESTRICT x, TD tx) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 d = td_off(ty, i), s = td_off(tx, i);
        switch (elemBytes) {
            case 4: ((u32*) y)[d] = ((const u32*) x)[s]; break;
            case 2: ((u16*) y)[d] = ((const u16*) x)[s]; break;
            case 1: ((u8*) y)[d] = ((const u8*) x)[s]; break;
            default:
                for (int b = 0; b < elemBytes; b++) ((u8*) y)[d * elemBytes + b] = ((const u8*) x)[s * elemBytes + b];
        }
    }
}

#define PAD_ZERO 0
#define PAD_REFLECT 1
#define PAD_REPLICATE 2

/** y (contiguous, dims tout.n) from x (dims/strides tx) padded by before.n[a] on each axis. */
GC_KERNEL void ae_pad(int mode, float value, i64 n, float* GC_RESTRICT y, TD tout, const float* GC_RESTRICT x, TD tx, TD before) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 rem = i, off = 0;
        bool outside = false;
        for (int a = 3; a >= 0; a--) {
            i64 idx = rem % tout.n[a];
            rem /= tout.n[a];
            i64 j = idx - before.n[a];
            if (j < 0 || j >= tx.n[a]) {
                if (mode == PAD_ZERO) outside = true;
                else if (mode == PAD_REFLECT) j = j < 0 ? -j : 2 * (tx.n[a] - 1) - j;
                else j = j < 0 ? 0 : tx.n[a] - 1;
            }
            off += j * tx.s[a];
        }
        y[i] = outside ? value : x[off];
    }
}

/** F32 -> F16, BF16 (round to nearest even) or I32 (half up like Math.round, NaN -> 0, saturating). */
GC_KERNEL void ae_cast_from_f32(int to, i64 n, void* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        float v = x[td_off(tx, i)];
        if (to == DT_F16) ((u16*) y)[i] = gc_f32_to_f16(v);
        else if (to == DT_BF16) ((u16*) y)[i] = gc_f32_to_bf16(v);
        else {
            int r;
            if (gc_isnan(v)) r = 0;
            else {
                double f = floor((double) v + 0.5);   // exact, like Math.round(float)
                r = f >= 2147483647.0 ? 2147483647 : (f <= -2147483648.0 ? (int) 0x80000000 : (int) f);
            }
            ((int*) y)[i] = r;
        }
    }
}

GC_DEVICE void st_half_at(u8* o, float v) {
    u16 h = gc_f32_to_f16(v);
    o[0] = (u8) (h & 0xff);
    o[1] = (u8) (h >> 8);
}

/** The value of largest magnitude (the first of equal magnitudes), as ggml's reference quantizers pick it. */
GC_DEVICE float signed_amax(const float* v, int n) {
    float amax = 0, max = 0;
    for (int i = 0; i < n; i++) if (fabsf(v[i]) > amax) { amax = fabsf(v[i]); max = v[i]; }
    return max;
}

/**
 * 32 values into one block of type `to` at o, as BlockQuantization (ggml's quantize_row_*_ref) does, byte for byte:
 * every product and sum separately rounded (gc_mul_rn, gc_add_rn), as Java rounds them.
 */
GC_DEVICE void quantize_block32(int to, const float* v, u8* o) {
    if (to == DT_Q8_0) {
        float amax = 0;
        for (int i = 0; i < 32; i++) amax = fmaxf(amax, fabsf(v[i]));
        float d = amax / 127.0f, id = d != 0 ? 1.0f / d : 0.0f;
        st_half_at(o, d);
        for (int i = 0; i < 32; i++) o[2 + i] = (u8) (signed char) (int) floor((double) gc_mul_rn(v[i], id) + 0.5);
        return;
    }
    int q[32];
    int nibbles;
    if (to == DT_Q4_0 || to == DT_Q5_0) { // d = (value of largest magnitude) / -8 or -16; q = min(15 or 31, trunc(x/d + 8.5 or 16.5))
        bool five = to == DT_Q5_0;
        float d = signed_amax(v, 32) / (five ? -16.0f : -8.0f), id = d != 0 ? 1.0f / d : 0.0f;
        st_half_at(o, d);
        for (int i = 0; i < 32; i++) q[i] = min(five ? 31 : 15, (int) gc_add_rn(gc_mul_rn(v[i], id), five ? 16.5f : 8.5f));
        nibbles = five ? 6 : 2;
    } else { // Q5_1, Q4_1: m = min (strict comparisons from +-FLT_MAX), d = (max - min) / 31 or 15, q = trunc((x - m)/d + 0.5)
        bool five = to == DT_Q5_1;
        float lo = 3.402823466e38f, hi = -3.402823466e38f;
        for (int i = 0; i < 32; i++) if (v[i] < lo) lo = v[i];
        for (int i = 0; i < 32; i++) if (v[i] > hi) hi = v[i];
        float d = (hi - lo) / (five ? 31.0f : 15.0f), id = d != 0 ? 1.0f / d : 0.0f;
        st_half_at(o, d);
        st_half_at(o + 2, lo);
        for (int i = 0; i < 32; i++) {
            int c = (int) gc_add_rn(gc_mul_rn(v[i] - lo, id), 0.5f);
            q[i] = five ? c : min(15, c); // ggml clamps Q4_1 only; Q5_1 keeps the low five bits
        }
        nibbles = five ? 8 : 4;
    }
    if (to == DT_Q5_0 || to == DT_Q5_1) { // the fifth bits: bit i of the little-endian u32 before the nibbles
        u32 qh = 0;
        for (int i = 0; i < 32; i++) qh |= (u32) ((q[i] >> 4) & 1) << i;
        for (int k = 0; k < 4; k++) o[nibbles - 4 + k] = (u8) (qh >> (8 * k));
    }
    for (int i = 0; i < 16; i++) o[nibbles + i] = (u8) ((q[i] & 15) | ((q[i + 16] & 15) << 4));
}

/** Java's Math.round(float): floor(x + 1/2), NaN to 0, saturating. */
GC_DEVICE int java_round(float x) {
    double f = floor((double) x + 0.5);
    return gc_isnan(x) ? 0 : (f >= 2147483647.0 ? 2147483647 : (f <= -2147483648.0 ? (int) 0x80000000 : (int) f));
}

GC_DEVICE int clamp_i(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

/** A float through f16 and back: the scale a block stores, as the quantizer then uses it. */
GC_DEVICE float f16_round(float v) { return gc_f16_to_f32(gc_f32_to_f16(v)); }

/** KQuants.setTwoBits: element e's two low bits at byte 32 (e / 128) + e % 32 of qs, shifted by 2 ((e % 128) / 32). */
GC_DEVICE void set_two_bits(u8* qs, int e, int q) { qs[32 * (e / 128) + e % 32] |= (u8) ((q & 3) << (2 * ((e % 128) / 32))); }

/**
 * 256 values into one k-quant super-block at o with engine-api KQuants' quantizers (not ggml's: no scale search),
 * step for step, so the bytes are the CPU's: the comments there say what each one does. Products and sums are
 * separately rounded (gc_mul_rn, gc_add_rn) where Java rounds each.
 */
GC_DEVICE void quantize_kquant(int to, const float* x, u8* o) {
    for (int i = 0; i < blk_bytes(to); i++) o[i] = 0;
    if (to == DT_Q6_K || to == DT_Q3_K) { // a signed scale per 16 values mapping the value of largest magnitude to -32 or -4
        bool six = to == DT_Q6_K;
        float scale[16], amaxScale = 0;
        for (int j = 0; j < 16; j++) {
            scale[j] = signed_amax(x + 16 * j, 16) / (six ? -32.0f : -4.0f);
            amaxScale = fmaxf(amaxScale, fabsf(scale[j]));
        }
        float d = f16_round(amaxScale / (six ? 127.0f : 31.0f));
        int q[256];
        for (int j = 0; j < 16; j++) {
            int sc;
            if (six) {
                sc = d == 0 ? 0 : clamp_i(java_round(scale[j] / d), -127, 127);
                o[192 + j] = (u8) sc;
            } else {
                int mag = d == 0 ? 0 : (int) ceilf(fabsf(scale[j]) / d);
                sc = scale[j] < 0 ? -min(32, mag) : min(31, mag);
                int stored = sc + 32;
                o[96 + j % 8] |= (u8) (j < 8 ? stored & 15 : (stored & 15) << 4);
                o[96 + 8 + j % 4] |= (u8) ((stored >> 4) << (2 * (j / 4)));
            }
            float step = gc_mul_rn(d, (float) sc);
            for (int i = 0; i < 16; i++) {
                int e = 16 * j + i;
                if (six) q[e] = (step == 0 ? 0 : clamp_i(java_round(x[e] / step), -32, 31)) + 32;
                else q[e] = step == 0 ? 0 : clamp_i(java_round(x[e] / step), -4, 3) + 4;
            }
        }
        if (six) {
            for (int n = 0; n < 256; n += 128) {
                u8 *ql = o + n / 2, *qh = o + 128 + n / 4;
                for (int l = 0; l < 32; l++) {
                    int q1 = q[n + l], q2 = q[n + l + 32], q3 = q[n + l + 64], q4 = q[n + l + 96];
                    ql[l] = (u8) ((q1 & 15) | ((q3 & 15) << 4));
                    ql[l + 32] = (u8) ((q2 & 15) | ((q4 & 15) << 4));
                    qh[l] = (u8) ((q1 >> 4) | ((q2 >> 4) << 2) | ((q3 >> 4) << 4) | ((q4 >> 4) << 6));
                }
            }
            st_half_at(o + 208, d);
        } else {
            for (int e = 0; e < 256; e++) {
                set_two_bits(o + 32, e, q[e]);
                if (q[e] >= 4) o[e % 32] |= (u8) (1 << (e / 32));
            }
            st_half_at(o + 108, d);
        }
        return;
    }
    // Q4_K, Q5_K (sub-blocks of 32, 6-bit scales and minimums) and Q2_K (sub-blocks of 16, 4-bit): each sub-block spans
    // [min(0, lowest), highest]; the minimum is rounded up to a multiple of dmin, the step up to a multiple of d
    bool two = to == DT_Q2_K, fifth = to == DT_Q5_K;
    int subs = two ? 16 : 8, per = two ? 16 : 32, levels = two ? 3 : (fifth ? 31 : 15), top = two ? 15 : 63;
    float his[16], mins[16], steps[16], maxMin = 0, maxStep = 0;
    int lms[16];
    for (int j = 0; j < subs; j++) {
        float lo = 0, hi = -3.402823466e38f;
        for (int i = 0; i < per; i++) {
            float v = x[per * j + i];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        his[j] = hi;
        mins[j] = -lo;
        maxMin = fmaxf(maxMin, mins[j]);
    }
    float dmin = f16_round(maxMin / (float) top);
    for (int j = 0; j < subs; j++) {
        lms[j] = dmin == 0 ? 0 : (int) fminf((float) top, ceilf(mins[j] / dmin));
        steps[j] = gc_add_rn(his[j], gc_mul_rn(dmin, (float) lms[j])) / (float) levels;
        maxStep = fmaxf(maxStep, steps[j]);
    }
    float d = f16_round(maxStep / (float) top);
    u8* qs = o + (two ? 16 : (fifth ? 48 : 16));
    int q[256];
    for (int j = 0; j < subs; j++) {
        int ls = d == 0 ? 0 : (int) fminf((float) top, ceilf(steps[j] / d)), lm = lms[j];
        if (two) o[j] = (u8) (ls | (lm << 4));
        else if (j < 4) { // ggml's packing: the first four in bytes 0-7, the last four in 8-11 and the top bits of 0-7
            o[4 + j] |= (u8) ls;
            o[4 + j + 4] |= (u8) lm;
        } else {
            o[4 + j + 4] |= (u8) ((ls & 15) | ((lm & 15) << 4));
            o[4 + j - 4] |= (u8) ((ls >> 4) << 6);
            o[4 + j] |= (u8) ((lm >> 4) << 6);
        }
        float step = gc_mul_rn(d, (float) ls), mn = gc_mul_rn(dmin, (float) lm);
        for (int i = 0; i < per; i++) {
            int e = per * j + i;
            q[e] = step == 0 ? 0 : clamp_i(java_round(gc_add_rn(x[e], mn) / step), 0, levels);
        }
    }
    if (two) {
        for (int e = 0; e < 256; e++) set_two_bits(qs, e, q[e]);
        st_half_at(o + 80, d);
        st_half_at(o + 82, dmin);
        return;
    }
    for (int p = 0; p < 4; p++) {
        for (int l = 0; l < 32; l++) {
            int a = q[64 * p + l], b = q[64 * p + 32 + l];
            qs[32 * p + l] = (u8) ((a & 15) | ((b & 15) << 4));
            if (fifth) o[16 + l] |= (u8) (((a >> 4) << (2 * p)) | ((b >> 4) << (2 * p + 1)));
        }
    }
    st_half_at(o, d);
    st_half_at(o + 2, dmin);
}

/**
 * F32 -> a block type with the rules of BlockQuantization: ggml's reference quantizers for the 32-value types (one
 * thread per block) and KQuants' own for the k-quants (one thread per 256-value super-block).
 */
GC_KERNEL void ae_quantize(int to, i64 blocks, u8* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx) {
    int values = is_kquant(to) ? 256 : 32, bb = blk_bytes(to);
    for (i64 b = gc_global_id(); b < blocks; b += gc_global_stride()) {
        float v[256];
        for (int i = 0; i < values; i++) v[i] = x[td_off(tx, b * values + i)];
        if (values == 32) quantize_block32(to, v, y + b * bb);
        else quantize_kquant(to, v, y + b * bb);
    }
}

/** Any dtype -> F32 (exact widening; block types dequantized). */
GC_KERNEL void ae_cast_to_f32(int from, i64 n, float* GC_RESTRICT y, const void* GC_RESTRICT x, TD tx) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) y[i] = ld_any(x, from, td_off(tx, i));
}

/**
 * F32 -> F16/BF16 rows for the GEMM library: hi = round(x) and, when lo is not null, lo = round(x - hi),
 * so that hi + lo carries x to about 16 (F16: 22) significant bits and two GEMMs recover F32 activations.
 * y [rows, cols] contiguous from a strided view.
 */
GC_KERNEL void ae_narrow_rows(int to, i64 n, u16* GC_RESTRICT hi, u16* GC_RESTRICT lo, const float* GC_RESTRICT x, TD tx) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        float v = x[td_off(tx, i)];
        u16 h = to == DT_F16 ? gc_f32_to_f16(v) : gc_f32_to_bf16(v);
        hi[i] = h;
        if (lo) {
            float r = v - (to == DT_F16 ? gc_f16_to_f32(h) : gc_bf16_to_f32(h));
            if (gc_isnan(r - r)) r = 0.0f; // x infinite or NaN (or beyond F16's range): hi carries it alone
            lo[i] = to == DT_F16 ? gc_f32_to_f16(r) : gc_f32_to_bf16(r);
        }
    }
}

/** Fills n values of dtype dt (F32, F16, BF16) with a hash of (seed, i) mapped to [-1, 1): benchmark inputs. */
GC_KERNEL void ae_fill_uniform(int dt, i64 n, void* GC_RESTRICT y, u32 seed) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        u32 h = (u32) i * 2654435761u ^ seed;
        h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
        float v = (float) (h >> 8) * (2.0f / 16777216.0f) - 1.0f;
        if (dt == DT_F32) ((float*) y)[i] = v;
        else if (dt == DT_F16) ((u16*) y)[i] = gc_f32_to_f16(v);
        else ((u16*) y)[i] = gc_f32_to_bf16(v);
    }
}

/**
 * In-place write into a persistent tensor: y (dims ty.n, strides ty.s) gets x (dims tx.n) at
 * position *start (0 when start is null) along axis `axis` (of the padded rank 4). Elements that
 * would land outside [0, ty.n[axis]) are dropped: a kernel cannot fail a run, and dropping keeps
 * every byte outside the tensor untouched. With batchAxis >= 0 (the padded axis of the tensor's
 * first dimension; a batched decoder step) start holds one position per batch element, element b's
 * at start[b * startStride], and a negative one skips element b whole (an empty slot writes nothing).
 */
GC_KERNEL void ae_write_slice(i64 n, int axis, const int* GC_RESTRICT start, int batchAxis, i64 startStride, float* y,
                              TD ty, const float* GC_RESTRICT x, TD tx) {
    i64 one = start ? (i64) start[0] : 0;
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 rem = i, dst = 0, src = 0, along = 0, cap = 0, step = 0, bi = 0;
        for (int a = 3; a >= 0; a--) {
            i64 idx = rem % tx.n[a];
            rem /= tx.n[a];
            src += idx * tx.s[a];
            dst += idx * ty.s[a];
            if (a == axis) { along = idx; cap = ty.n[a]; step = ty.s[a]; }
            if (a == batchAxis) bi = idx;
        }
        i64 at = batchAxis >= 0 ? (i64) start[bi * startStride] : one;
        i64 j = along + at;
        if (j >= 0 && j < cap && (batchAxis < 0 || at >= 0)) y[dst + at * step] = x[src];
    }
}
