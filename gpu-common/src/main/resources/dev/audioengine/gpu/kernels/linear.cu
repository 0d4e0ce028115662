// Matmul for any weight dtype (the general path; contiguous F32/F16/BF16 go to the GEMM library),
// conv1d (general and depthwise) and conv_transpose1d.
#include "ae_tensor.h"

#define MM_TILE 16

/**
 * y[b, m, n] = sum_k x[b, m, k] * w[b, n, k]. y is contiguous [B0, B1, M, N]; tx and tw are padded
 * to [B0, B1, M|N, K] with stride 0 on broadcast batch axes. Block (16, 16), grid (N/16, M/16, B0*B1).
 * Quantized weights are contiguous along k, so an element offset is also a block position. ANY_BLOCK: every block
 * type (ld_any; ae_matmul_blocks), else the plain types, Q8_0 and Q4_0 (ld_basic; ae_matmul, as it was before the
 * other block types, with 32 registers where ld_any takes 38).
 */
template <bool ANY_BLOCK>
GC_DEVICE void matmul_tiled(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const void* GC_RESTRICT w, int wt, TD tw,
                            i64 M, i64 N, i64 K, i64 B1) {
    GC_SHARED float xs[MM_TILE][MM_TILE + 1];
    GC_SHARED float ws[MM_TILE][MM_TILE + 1];
    int tx_ = gc_tid(), ty_ = gc_tid_y();
    i64 z = gc_block_z(), b0 = z / B1, b1 = z % B1;
    i64 m = gc_block_y() * MM_TILE + ty_, n = gc_block() * MM_TILE + tx_;
    i64 xBase = b0 * tx.s[0] + b1 * tx.s[1], wBase = b0 * tw.s[0] + b1 * tw.s[1];
    i64 nLoad = gc_block() * MM_TILE + ty_; // the weight row this thread loads
    float acc = 0;
    for (i64 k0 = 0; k0 < K; k0 += MM_TILE) {
        i64 k = k0 + tx_;
        xs[ty_][tx_] = (m < M && k < K) ? x[xBase + m * tx.s[2] + k * tx.s[3]] : 0.0f;
        i64 we = wBase + nLoad * tw.s[2] + k * tw.s[3];
        ws[ty_][tx_] = (nLoad < N && k < K) ? (ANY_BLOCK ? ld_any(w, wt, we) : ld_basic(w, wt, we)) : 0.0f;
        gc_sync();
        for (int kk = 0; kk < MM_TILE; kk++) acc += xs[ty_][kk] * ws[tx_][kk];
        gc_sync();
    }
    if (m < M && n < N) y[(z * M + m) * N + n] = acc;
}

/** The tiled matmul for F32, F16, BF16, Q8_0 and Q4_0 weights. */
GC_KERNEL void ae_matmul(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const void* GC_RESTRICT w, int wt, TD tw,
                         i64 M, i64 N, i64 K, i64 B1) {
    matmul_tiled<false>(y, x, tx, w, wt, tw, M, N, K, B1);
}

/** The tiled matmul for the other block types (Q5_0, Q5_1, Q4_1, the k-quants). */
GC_KERNEL void ae_matmul_blocks(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const void* GC_RESTRICT w, int wt,
                                TD tw, i64 M, i64 N, i64 K, i64 B1) {
    matmul_tiled<true>(y, x, tx, w, wt, tw, M, N, K, B1);
}

/**
 * Direct conv1d, one thread per output [B, Cout, Tout]. tx padded [1, B, Cin, T], tw [1, Cout, Cin/groups, K].
 */
GC_KERNEL void ae_conv1d(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT w, TD tw,
                         const float* GC_RESTRICT bias, i64 biasStride, i64 B, i64 Cin, i64 T, i64 Cout, i64 K, i64 Tout,
                         int stride, int pad, int dil, int groups) {
    i64 n = B * Cout * Tout;
    i64 cinPer = Cin / groups, coutPer = Cout / groups;
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 t = i % Tout, co = (i / Tout) % Cout, b = i / (Tout * Cout);
        i64 g = co / coutPer;
        float acc = bias ? bias[co * biasStride] : 0.0f;
        for (i64 c = 0; c < cinPer; c++) {
            i64 ci = g * cinPer + c;
            const float* xr = x + b * tx.s[1] + ci * tx.s[2];
            const float* wr = w + co * tw.s[1] + c * tw.s[2];
            for (i64 k = 0; k < K; k++) {
                i64 ti = t * stride - pad + k * dil;
                if (ti >= 0 && ti < T) acc += xr[ti * tx.s[3]] * wr[k * tw.s[3]];
            }
        }
        y[i] = acc;
    }
}

/** Depthwise conv1d (groups == Cin == Cout): one channel's taps per output, no channel loop. */
GC_KERNEL void ae_conv1d_depthwise(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT w, TD tw,
                                   const float* GC_RESTRICT bias, i64 biasStride, i64 B, i64 C, i64 T, i64 K, i64 Tout,
                                   int stride, int pad, int dil) {
    i64 n = B * C * Tout;
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 t = i % Tout, c = (i / Tout) % C, b = i / (Tout * C);
        const float* xr = x + b * tx.s[1] + c * tx.s[2];
        const float* wr = w + c * tw.s[1];
        float acc = bias ? bias[c * biasStride] : 0.0f;
        i64 t0 = t * stride - pad;
        for (i64 k = 0; k < K; k++) {
            i64 ti = t0 + k * dil;
            if (ti >= 0 && ti < T) acc += xr[ti * tx.s[3]] * wr[k * tw.s[3]];
        }
        y[i] = acc;
    }
}

/**
 * ConvTranspose1d gathered per output [B, Cout, Tout]: x [B, Cin, T] (tx padded [1, B, Cin, T]),
 * w [Cin, Cout/groups, K] (tw padded [1, Cin, Cout/groups, K]); input time ti feeds t = ti*stride - pad + k*dil.
 */
GC_KERNEL void ae_conv_transpose1d(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT w, TD tw,
                                   const float* GC_RESTRICT bias, i64 biasStride, i64 B, i64 Cin, i64 T, i64 Cout, i64 K,
                                   i64 Tout, int stride, int pad, int dil, int groups) {
    i64 n = B * Cout * Tout;
    i64 cinPer = Cin / groups, coutPer = Cout / groups;
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 t = i % Tout, co = (i / Tout) % Cout, b = i / (Tout * Cout);
        i64 g = co / coutPer, col = co % coutPer;
        float acc = bias ? bias[co * biasStride] : 0.0f;
        for (i64 c = 0; c < cinPer; c++) {
            i64 ci = g * cinPer + c;
            const float* xr = x + b * tx.s[1] + ci * tx.s[2];
            const float* wr = w + ci * tw.s[1] + col * tw.s[2];
            for (i64 k = 0; k < K; k++) {
                i64 num = t + pad - k * dil;
                if (num < 0 || num % stride != 0) continue;
                i64 ti = num / stride;
                if (ti < T) acc += xr[ti * tx.s[3]] * wr[k * tw.s[3]];
            }
        }
        y[i] = acc;
    }
}

/**
 * Four values e0..e0+3 (e0 a multiple of 4) of the 32-value block blk of type wt, dotted with xb[0..3]: the block's
 * scale d times the sum of codes times x, plus its minimum times the sum of x for Q5_1 and Q4_1.
 */
GC_DEVICE float q32_dot4(const u8* blk, int wt, int e0, const float* xb) {
    float d = ld_half_at(blk), s = 0;
    if (wt == DT_Q8_0) {
        for (int j = 0; j < 4; j++) s += (float) (signed char) blk[2 + e0 + j] * xb[j];
        return d * s;
    }
    // values 0-15 are the low nibbles of bytes 0-15, values 16-31 their high nibbles; the 5-bit types add bit e of
    // the u32 before the nibbles as the code's 16
    int shift = e0 >= 16 ? 4 : 0, at = e0 % 16;
    int nibbles = wt == DT_Q4_0 ? 2 : wt == DT_Q5_0 ? 6 : wt == DT_Q4_1 ? 4 : 8;
    int bias = wt == DT_Q4_0 ? 8 : wt == DT_Q5_0 ? 16 : 0;
    bool five = wt == DT_Q5_0 || wt == DT_Q5_1;
    int high = five ? ((blk[nibbles - 4 + (e0 >> 3)] >> (e0 & 7)) & 15) << 4 : 0; // this lane's four fifth bits, at 16
    float sx = 0;
    for (int j = 0; j < 4; j++) {
        int q = (((blk[nibbles + at + j] >> shift) & 15) | ((high >> j) & 16)) - bias;
        s += (float) q * xb[j];
        sx += xb[j];
    }
    return wt == DT_Q5_1 || wt == DT_Q4_1 ? d * s + ld_half_at(blk + 2) * sx : d * s;
}

/**
 * Eight values i0..i0+7 (i0 a multiple of 8) of the k-quant super-block blk of type wt, dotted with xb[0..7]. The
 * eight share one sub-block (16 or 32 values), so its scale (and minimum) is unpacked once, as kq_value does it.
 */
GC_DEVICE float kq_dot8(const u8* blk, int wt, int i0, const float* xb) {
    float s = 0, sx = 0;
    int l0 = i0 & 31, quarter = (i0 >> 5) & 3, half = i0 >> 7;
    switch (wt) {
        case DT_Q6_K: {
            const u8* ql = blk + 64 * half + 32 * (quarter & 1);
            const u8* qh = blk + 128 + 32 * half;
            int lowShift = quarter < 2 ? 0 : 4, highShift = 2 * quarter;
            for (int j = 0; j < 8; j++) {
                int q = (((ql[l0 + j] >> lowShift) & 15) | (((qh[l0 + j] >> highShift) & 3) << 4)) - 32;
                s += (float) q * xb[j];
            }
            return ld_half_at(blk + 208) * (float) (signed char) blk[192 + 8 * half + (l0 >> 4) + 2 * quarter] * s;
        }
        case DT_Q4_K:
        case DT_Q5_K: {
            bool fifth = wt == DT_Q5_K;
            int j = i0 >> 5;
            const u8* ql = blk + (fifth ? 48 : 16) + 32 * (j >> 1);
            for (int t = 0; t < 8; t++) {
                int q = (ql[l0 + t] >> (4 * (j & 1))) & 15;
                if (fifth) q |= ((blk[16 + l0 + t] >> j) & 1) << 4;
                s += (float) q * xb[t];
                sx += xb[t];
            }
            float d1 = ld_half_at(blk) * (float) scale_k4(blk + 4, j, false);
            float m1 = ld_half_at(blk + 2) * (float) scale_k4(blk + 4, j, true);
            return d1 * s - m1 * sx;
        }
        case DT_Q3_K: {
            const u8* qs = blk + 32 + 32 * half;
            int shift = 2 * quarter, bit = i0 >> 5;
            for (int t = 0; t < 8; t++) {
                int q = ((qs[l0 + t] >> shift) & 3) - (((blk[l0 + t] >> bit) & 1) ? 0 : 4);
                s += (float) q * xb[t];
            }
            return ld_half_at(blk + 108) * (float) (scale_q3k(blk + 96, i0 >> 4) - 32) * s;
        }
        case DT_Q2_K: {
            const u8* qs = blk + 16 + 32 * half;
            int shift = 2 * quarter, sc = blk[i0 >> 4];
            for (int t = 0; t < 8; t++) {
                s += (float) ((qs[l0 + t] >> shift) & 3) * xb[t];
                sx += xb[t];
            }
            return ld_half_at(blk + 80) * (float) (sc & 15) * s - ld_half_at(blk + 82) * (float) (sc >> 4) * sx;
        }
    }
    return gc_nan();
}

/**
 * Quantized mat-vec for few rows: y[r, n] = sum_k x[r, k] w[n, k] with w of block type WT (Q8_0, Q4_0, Q5_0, Q5_1,
 * Q4_1, or a k-quant), contiguous [N, K] (K a multiple of the block's 32 or 256 values), unit-stride x (tx padded
 * [B0, B1, M, K], row r over the first three axes). One warp per output n (a block takes MV_ROWS consecutive n; grid y
 * is r). For the 32-value types eight lanes read one block together, four values each, so the quants are read
 * coalesced, the scale is one broadcast load, and a warp has four blocks in flight (eight on wave64); for the k-quants
 * a whole warp reads one 256-value super-block, eight values a lane (two super-blocks at once on wave64). The warp's
 * sum is a shuffle reduction, no shared memory. (It was one block per n with a thread per whole block: K = 416 kept
 * 13 of 128 threads busy.) One kernel per type (below), so each holds only its own decode: a kernel switching over
 * all ten took 62 registers where Q8_0's alone takes 40.
 */
#define MV_ROWS 8 /* outputs n per block: LinearOps.MATVEC_ROWS; 32-wide warps take one each, wave64 ones stride over them */
template <int WT>
GC_DEVICE void matvec_q(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) {
    int lane = gc_tid() % GC_WARP_SIZE, warp = gc_tid() / GC_WARP_SIZE, warps = gc_block_dim() / GC_WARP_SIZE;
    i64 r = gc_block_y(), first = gc_block() * MV_ROWS, end = first + MV_ROWS < N ? first + MV_ROWS : N;
    const float* xr = x + td_row(tx, r);
    const bool kq = is_kquant(WT);
    const int lanesPerBlock = kq ? 32 : 8, perLane = kq ? 8 : 4, values = kq ? 256 : 32;
    i64 nb = K / values, bb = blk_bytes(WT);
    int e0 = (lane % lanesPerBlock) * perLane, blocksAtOnce = GC_WARP_SIZE / lanesPerBlock;
    for (i64 n = first + warp; n < end; n += warps) { // the same n for a whole warp: its shuffles see full warps
        const u8* wr = w + n * nb * bb;
        float acc = 0;
        for (i64 b = lane / lanesPerBlock; b < nb; b += blocksAtOnce) {
            const u8* blk = wr + b * bb;
            const float* xb = xr + b * values + e0;
            acc += kq ? kq_dot8(blk, WT, e0, xb) : q32_dot4(blk, WT, e0, xb);
        }
        for (int m = GC_WARP_SIZE / 2; m > 0; m >>= 1) acc += gc_shfl_xor(acc, m);
        if (lane == 0) y[r * N + n] = acc;
    }
}

/**
 * Half-float mat-vec for few rows: y[r, n] = sum_k x[r, k] w[n, k] with w F16 or BF16 (WT), contiguous [N, K] rows
 * (any K), unit-stride x as matvec_q takes it. Each weight value widens exactly to F32 and multiplies the F32
 * activation, accumulated in F32: no rounding of the activations (the GEMM library's half path rounds them into a high
 * and a low half, two GEMMs after a narrowing kernel: three launches where this is one). One warp per output n, lane l
 * takes k = 2l, 2l+1, 2l+64, ... (two halves a lane per read, 128 bytes a warp), a shuffle reduction at the end.
 */
template <int WT>
GC_DEVICE void matvec_h(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u16* GC_RESTRICT w, i64 N, i64 K) {
    int lane = gc_tid() % GC_WARP_SIZE, warp = gc_tid() / GC_WARP_SIZE, warps = gc_block_dim() / GC_WARP_SIZE;
    i64 r = gc_block_y(), first = gc_block() * MV_ROWS, end = first + MV_ROWS < N ? first + MV_ROWS : N;
    const float* xr = x + td_row(tx, r);
    for (i64 n = first + warp; n < end; n += warps) { // the same n for a whole warp: its shuffles see full warps
        const u16* wr = w + n * K;
        float acc = 0;
        for (i64 k = 2 * lane; k < K; k += 2 * GC_WARP_SIZE) {
            float w0 = WT == DT_F16 ? gc_f16_to_f32(wr[k]) : gc_bf16_to_f32(wr[k]);
            acc += w0 * xr[k];
            if (k + 1 < K) {
                float w1 = WT == DT_F16 ? gc_f16_to_f32(wr[k + 1]) : gc_bf16_to_f32(wr[k + 1]);
                acc += w1 * xr[k + 1];
            }
        }
        for (int m = GC_WARP_SIZE / 2; m > 0; m >>= 1) acc += gc_shfl_xor(acc, m);
        if (lane == 0) y[r * N + n] = acc;
    }
}

// ae_matvec_<type>: LinearOps.matvecKernel names them
GC_KERNEL void ae_matvec_f16(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u16* GC_RESTRICT w, i64 N, i64 K) { matvec_h<DT_F16>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_bf16(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u16* GC_RESTRICT w, i64 N, i64 K) { matvec_h<DT_BF16>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q8_0(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q8_0>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q4_0(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q4_0>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q5_0(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q5_0>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q5_1(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q5_1>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q4_1(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q4_1>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q6_k(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q6_K>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q4_k(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q4_K>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q5_k(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q5_K>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q3_k(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q3_K>(y, x, tx, w, N, K); }
GC_KERNEL void ae_matvec_q2_k(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, i64 N, i64 K) { matvec_q<DT_Q2_K>(y, x, tx, w, N, K); }

/**
 * col2im for conv_transpose1d after the GEMM: cols [B, groups, coutPer*K, T] holds w^T x per group;
 * y [B, Cout, Tout] gathers, for each tap k, the column whose input time ti maps to t = ti*stride - pad + k*dil.
 */
GC_KERNEL void ae_col2im_1d(float* GC_RESTRICT y, const float* GC_RESTRICT cols, const float* GC_RESTRICT bias, i64 biasStride,
                            i64 B, i64 Cout, i64 T, i64 K, i64 Tout, int stride, int pad, int dil, int groups) {
    i64 n = B * Cout * Tout, coutPer = Cout / groups;
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 t = i % Tout, co = (i / Tout) % Cout, b = i / (Tout * Cout);
        i64 g = co / coutPer, col = co % coutPer;
        const float* cg = cols + ((b * groups + g) * coutPer + col) * K * T;
        float acc = bias ? bias[co * biasStride] : 0.0f;
        for (i64 k = 0; k < K; k++) {
            i64 num = t + pad - k * dil;
            if (num < 0 || num % stride != 0) continue;
            i64 ti = num / stride;
            if (ti < T) acc += cg[k * T + ti];
        }
        y[i] = acc;
    }
}

/**
 * im2col for conv1d before the GEMM: cols [B, Cin*K, Tout] (row ci*K + k) holds x[b, ci, t*stride - pad + k*dil]
 * (0 outside the input). tx padded [1, B, Cin, T]. Rows along grid y, time along x (both grid-stride), so the
 * row's indices are divided out once per row, not once per element: this kernel writes K times the input.
 */
GC_KERNEL void ae_im2col_1d(float* GC_RESTRICT cols, const float* GC_RESTRICT x, TD tx, i64 B, i64 Cin, i64 T, i64 K, i64 Tout,
                            int stride, int pad, int dil) {
    i64 rows = B * Cin * K;
    for (i64 row = gc_block_y(); row < rows; row += gc_grid_dim_y()) {
        i64 k = row % K, ci = (row / K) % Cin, b = row / (K * Cin);
        const float* xr = x + b * tx.s[1] + ci * tx.s[2];
        float* cr = cols + row * Tout;
        i64 first = (i64) k * dil - pad;
        for (i64 t = gc_global_id(); t < Tout; t += gc_global_stride()) {
            i64 ti = t * stride + first;
            cr[t] = (ti >= 0 && ti < T) ? xr[ti * tx.s[3]] : 0.0f;
        }
    }
}

/** y [B, C, T] = bias[c] broadcast (the GEMM then accumulates into it); zeros without a bias. Rows along grid y, as im2col. */
GC_KERNEL void ae_fill_bias(float* GC_RESTRICT y, const float* GC_RESTRICT bias, i64 biasStride, i64 B, i64 C, i64 T) {
    for (i64 row = gc_block_y(); row < B * C; row += gc_grid_dim_y()) {
        float v = bias ? bias[(row % C) * biasStride] : 0.0f;
        for (i64 t = gc_global_id(); t < T; t += gc_global_stride()) y[row * T + t] = v;
    }
}
