// Strided copies (contiguous, concat pieces), pad and casts.
#include "ae_tensor.h"

/** y[ty(i)] = x[tx(i)] for elements of elemBytes bytes (a block counts as one element for Q8_0/Q4_0). */
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

/** F32 -> Q8_0 or Q4_0 with ggml's reference rules (as BlockQuantization); one thread per 32-value block. */
GC_KERNEL void ae_quantize(int to, i64 blocks, u8* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx) {
    for (i64 b = gc_global_id(); b < blocks; b += gc_global_stride()) {
        float v[32];
        for (int i = 0; i < 32; i++) v[i] = x[td_off(tx, b * 32 + i)];
        if (to == DT_Q8_0) {
            float amax = 0;
            for (int i = 0; i < 32; i++) amax = fmaxf(amax, fabsf(v[i]));
            float d = amax / 127.0f, id = d != 0 ? 1.0f / d : 0.0f;
            u8* o = y + b * 34;
            u16 h = gc_f32_to_f16(d);
            o[0] = (u8) (h & 0xff);
            o[1] = (u8) (h >> 8);
            for (int i = 0; i < 32; i++) o[2 + i] = (u8) (signed char) (int) floor((double) gc_mul_rn(v[i], id) + 0.5);
        } else {
            float amax = 0, max = 0;
            for (int i = 0; i < 32; i++) if (fabsf(v[i]) > amax) { amax = fabsf(v[i]); max = v[i]; }
            float d = max / -8.0f, id = d != 0 ? 1.0f / d : 0.0f;
            u8* o = y + b * 18;
            u16 h = gc_f32_to_f16(d);
            o[0] = (u8) (h & 0xff);
            o[1] = (u8) (h >> 8);
            for (int i = 0; i < 16; i++) {
                int q0 = min(15, (int) gc_add_rn(gc_mul_rn(v[i], id), 8.5f));
                int q1 = min(15, (int) gc_add_rn(gc_mul_rn(v[i + 16], id), 8.5f));
                o[2 + i] = (u8) (q0 | (q1 << 4));
            }
        }
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
