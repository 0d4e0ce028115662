// ae_tensor.h: tensor descriptors, dtype loads and block reductions shared by every kernel file.
// Vendor-neutral: it uses only gpu_compat.h.
#ifndef AE_TENSOR_H
#define AE_TENSOR_H
#include "gpu_compat.h"

// A strided view of rank <= 4, padded on the left with size-1 axes: dims n and element strides s.
// Matches TensorDesc on the Java side (8 x int64, 64 bytes).
struct TD { i64 n[4]; i64 s[4]; };

// DType ordinals of dev.audioengine.api.tensor.DType.
#define DT_F32 0
#define DT_F16 1
#define DT_BF16 2
#define DT_I32 3
#define DT_I8 4
#define DT_Q8_0 5
#define DT_Q4_0 6

/** Element offset of the i-th element (row-major over n) of a view. */
GC_DEVICE i64 td_off(const TD& t, i64 i) {
    i64 i3 = i % t.n[3]; i /= t.n[3];
    i64 i2 = i % t.n[2]; i /= t.n[2];
    i64 i1 = i % t.n[1];
    i64 i0 = i / t.n[1];
    return i0 * t.s[0] + i1 * t.s[1] + i2 * t.s[2] + i3 * t.s[3];
}

/** Element offset of row r (row-major over the first three axes); the last axis is the row. */
GC_DEVICE i64 td_row(const TD& t, i64 r) {
    i64 i2 = r % t.n[2]; r /= t.n[2];
    i64 i1 = r % t.n[1];
    i64 i0 = r / t.n[1];
    return i0 * t.s[0] + i1 * t.s[1] + i2 * t.s[2];
}

GC_DEVICE float ld_f16(const void* p, i64 e) { return gc_f16_to_f32(((const u16*) p)[e]); }

/** Element e (an element offset) of any dtype as a float; block types decode their block. */
GC_DEVICE float ld_any(const void* p, int dt, i64 e) {
    switch (dt) {
        case DT_F32: return ((const float*) p)[e];
        case DT_F16: return gc_f16_to_f32(((const u16*) p)[e]);
        case DT_BF16: return gc_bf16_to_f32(((const u16*) p)[e]);
        case DT_I32: return (float) ((const int*) p)[e];
        case DT_I8: return (float) ((const signed char*) p)[e];
        case DT_Q8_0: {
            const u8* b = (const u8*) p + (e >> 5) * 34;
            float d = gc_f16_to_f32((u16) (b[0] | (b[1] << 8)));
            return d * (float) (signed char) b[2 + (e & 31)];
        }
        case DT_Q4_0: {
            const u8* b = (const u8*) p + (e >> 5) * 18;
            float d = gc_f16_to_f32((u16) (b[0] | (b[1] << 8)));
            int i = (int) (e & 31);
            int q = i < 16 ? (b[2 + i] & 15) : (b[2 + i - 16] >> 4);
            return (float) (q - 8) * d;
        }
    }
    return gc_nan();
}

/** max that propagates NaN (as Math.max and torch.max do). */
GC_DEVICE float nan_max(float a, float b) { return (gc_isnan(a) || a > b) ? a : (gc_isnan(b) ? b : (b > a ? b : a)); }

// Block-wide reductions of a 1D block whose size is a multiple of the warp size: shuffles within each warp, then the
// warps' results through sh (at least one float per warp). Every thread of the block must call them; all get the
// result. Two barriers, where a shared-memory tree took one per halving (eight for 256 threads).
GC_DEVICE float block_reduce(float v, float* sh, int isMax) {
    int tid = gc_tid(), lane = tid % GC_WARP_SIZE, warp = tid / GC_WARP_SIZE, warps = gc_block_dim() / GC_WARP_SIZE;
    for (int m = GC_WARP_SIZE / 2; m > 0; m >>= 1) {
        float o = gc_shfl_xor(v, m);
        v = isMax ? nan_max(v, o) : v + o;
    }
    if (lane == 0) sh[warp] = v;
    gc_sync();
    float r = sh[0];
    for (int w = 1; w < warps; w++) r = isMax ? nan_max(r, sh[w]) : r + sh[w];
    gc_sync();
    return r;
}

GC_DEVICE float block_sum(float v, float* sh) { return block_reduce(v, sh, 0); }

GC_DEVICE float block_max(float v, float* sh) { return block_reduce(v, sh, 1); }

GC_DEVICE float sigmoid_f(float x) {
    if (x >= 0) return 1.0f / (1.0f + expf(-x));
    float e = expf(x);
    return e / (1.0f + e);
}

#endif
