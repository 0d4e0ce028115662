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
#define DT_Q5_0 7
#define DT_Q5_1 8
#define DT_Q4_1 9
#define DT_Q6_K 10
#define DT_Q4_K 11
#define DT_Q5_K 12
#define DT_Q3_K 13
#define DT_Q2_K 14

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

// Block types. Their layouts are ggml's (engine-api's DType javadoc) and every decode below is the arithmetic of
// engine-api's BlockQuantization and KQuants, in the same order, so a value decoded here is the CPU's value bit for
// bit (cast to F32 is exact; BlockDecodeHostTest runs these on the host against the Java decode). Blocks sit at any
// byte offset (22-, 20-, 210-byte blocks), so multi-byte fields are read a byte at a time.

/** Bytes per block of a block type (DType.blockBytes); 0 for plain types. */
GC_DEVICE int blk_bytes(int dt) {
    switch (dt) {
        case DT_Q8_0: return 34;
        case DT_Q4_0: return 18;
        case DT_Q5_0: return 22;
        case DT_Q5_1: return 24;
        case DT_Q4_1: return 20;
        case DT_Q6_K: return 210;
        case DT_Q4_K: return 144;
        case DT_Q5_K: return 176;
        case DT_Q3_K: return 110;
        case DT_Q2_K: return 84;
    }
    return 0;
}

/** The k-quants: 256-value super-blocks (the other block types hold 32 values). */
GC_DEVICE bool is_kquant(int dt) { return dt >= DT_Q6_K && dt <= DT_Q2_K; }

/** The f16 at byte b (little-endian, any alignment) as a float. */
GC_DEVICE float ld_half_at(const u8* b) { return gc_f16_to_f32((u16) (b[0] | (b[1] << 8))); }

/** Element i (0..31) of 32 nibbles packed as Q4_0's: values 0-15 in the low nibbles of bytes 0-15, 16-31 the high. */
GC_DEVICE int nibble_at(const u8* q, int i) { return i < 16 ? (q[i] & 15) : (q[i - 16] >> 4); }

/** Element i's fifth bit (16 or 0) of the 5-bit types: bit i of the little-endian u32 at qh. */
GC_DEVICE int fifth_at(const u8* qh, int i) { return ((qh[i >> 3] >> (i & 7)) & 1) << 4; }

/**
 * The minimum (min true) or scale of sub-block j (0..7) of a Q4_K/Q5_K super-block whose 12 scale bytes are at q:
 * KQuants.scaleK4 (ggml's get_scale_min_k4).
 */
GC_DEVICE int scale_k4(const u8* q, int j, bool min) {
    if (j < 4) return q[j + (min ? 4 : 0)] & 63;
    return min ? (q[j + 4] >> 4) | ((q[j] >> 6) << 4) : (q[j + 4] & 15) | ((q[j - 4] >> 6) << 4);
}

/** The 6-bit scale (32 meaning 0) of sub-block j (0..15) of a Q3_K super-block's 12 scale bytes: KQuants.scaleQ3K. */
GC_DEVICE int scale_q3k(const u8* sc, int j) {
    int low = j < 8 ? sc[j] & 15 : sc[j - 8] >> 4;
    return low | (((sc[8 + j % 4] >> (2 * (j / 4))) & 3) << 4);
}

/** Element i (0..31) of the 32-value block b of type dt (Q8_0 ... Q4_1), as BlockQuantization decodes it. */
GC_DEVICE float q32_value(const u8* b, int dt, int i) {
    float d = ld_half_at(b);
    switch (dt) {
        case DT_Q8_0: return d * (float) (signed char) b[2 + i];
        case DT_Q4_0: return (float) (nibble_at(b + 2, i) - 8) * d;
        // BlockQuantization adds the minimum, 0 for Q5_0: (q - 16) d + 0 (so -0 comes out as +0, as there)
        case DT_Q5_0: return gc_add_rn(gc_mul_rn((float) ((nibble_at(b + 6, i) | fifth_at(b + 2, i)) - 16), d), 0.0f);
        case DT_Q5_1: return gc_add_rn(gc_mul_rn((float) (nibble_at(b + 8, i) | fifth_at(b + 4, i)), d), ld_half_at(b + 2));
        case DT_Q4_1: return gc_add_rn(gc_mul_rn((float) nibble_at(b + 4, i), d), ld_half_at(b + 2));
    }
    return gc_nan();
}

/** Element i (0..255) of the k-quant super-block b of type dt, as KQuants.dequantize (ggml's dequantize_row_q*_K). */
GC_DEVICE float kq_value(const u8* b, int dt, int i) {
    switch (dt) {
        case DT_Q6_K: { // ql[128], qh[64], int8 scales[16], f16 d; halves of 128, four quarters of 32 each
            int h = i >> 7, c = (i >> 5) & 3, l = i & 31;
            int lowByte = b[64 * h + l + 32 * (c & 1)];
            int q = ((c < 2 ? lowByte & 15 : lowByte >> 4) | (((b[128 + 32 * h + l] >> (2 * c)) & 3) << 4)) - 32;
            float d = ld_half_at(b + 208);
            return d * (float) (signed char) b[192 + 8 * h + (l >> 4) + 2 * c] * (float) q;
        }
        case DT_Q4_K:
        case DT_Q5_K: { // f16 d, f16 dmin, 12 scale bytes, [qh[32]], qs[128]; sub-blocks of 32
            bool fifth = dt == DT_Q5_K;
            int j = i >> 5, l = i & 31;
            const u8* ql = b + (fifth ? 48 : 16);
            float d1 = ld_half_at(b) * (float) scale_k4(b + 4, j, false);
            float m1 = ld_half_at(b + 2) * (float) scale_k4(b + 4, j, true);
            int q = (ql[32 * (j >> 1) + l] >> (4 * (j & 1))) & 15;
            if (fifth && ((b[16 + l] >> j) & 1)) q += 16;
            return gc_add_rn(gc_mul_rn(d1, (float) q), -m1);
        }
        case DT_Q3_K: { // hmask[32], qs[64], 12 scale bytes, f16 d; sub-blocks of 16
            int l = i & 31;
            float dl = ld_half_at(b + 108) * (float) (scale_q3k(b + 96, i >> 4) - 32);
            int q = (b[32 + 32 * (i >> 7) + l] >> (2 * ((i >> 5) & 3))) & 3;
            return dl * (float) (q - (((b[l] >> (i >> 5)) & 1) ? 0 : 4));
        }
        case DT_Q2_K: { // scales[16] (scale low nibble, minimum high), qs[64], f16 d, f16 dmin; sub-blocks of 16
            int sc = b[i >> 4];
            float dl = ld_half_at(b + 80) * (float) (sc & 15), ml = ld_half_at(b + 82) * (float) (sc >> 4);
            int q = (b[16 + 32 * (i >> 7) + (i & 31)] >> (2 * ((i >> 5) & 3))) & 3;
            return gc_add_rn(gc_mul_rn(dl, (float) q), -ml);
        }
    }
    return gc_nan();
}

/** Element e (an element offset) of any dtype as a float; block types decode their block. */
GC_DEVICE float ld_any(const void* p, int dt, i64 e) {
    switch (dt) {
        case DT_F32: return ((const float*) p)[e];
        case DT_F16: return gc_f16_to_f32(((const u16*) p)[e]);
        case DT_BF16: return gc_bf16_to_f32(((const u16*) p)[e]);
        case DT_I32: return (float) ((const int*) p)[e];
        case DT_I8: return (float) ((const signed char*) p)[e];
    }
    if (is_kquant(dt)) return kq_value((const u8*) p + (e >> 8) * blk_bytes(dt), dt, (int) (e & 255));
    if (blk_bytes(dt) > 0) return q32_value((const u8*) p + (e >> 5) * blk_bytes(dt), dt, (int) (e & 31));
    return gc_nan();
}

/**
 * Element e of the basic types (the plain ones, Q8_0 and Q4_0) as a float: ld_any as it was before the other block
 * types, kept for the kernels that read nothing else (attention's caches; the tiled matmul's ae_matmul, whose other
 * weights go to ae_matmul_blocks), so they compile as they did. Through today's ld_any nvcc gave ae_attention 72
 * registers instead of 64 and ae_matmul 38 instead of 32 (sm_90); a loader of the float types alone moved
 * ae_attention_split from 54 to 64 (its loops unrolled differently).
 */
GC_DEVICE float ld_basic(const void* p, int dt, i64 e) {
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
