// Matmul for any weight dtype (the general path; contiguous F32/F16/BF16 go to the GEMM library),
// conv1d (general and depthwise) and conv_transpose1d.
#include "ae_tensor.h"

#define MM_TILE 16

/**
 * y[b, m, n] = sum_k x[b, m, k] * w[b, n, k]. y is contiguous [B0, B1, M, N]; tx and tw are padded
 * to [B0, B1, M|N, K] with stride 0 on broadcast batch axes. Block (16, 16), grid (N/16, M/16, B0*B1).
 * Quantized weights are contiguous along k, so an element offset is also a block position.
 */
GC_KERNEL void ae_matmul(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const void* GC_RESTRICT w, int wt, TD tw,
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
        ws[ty_][tx_] = (nLoad < N && k < K) ? ld_any(w, wt, wBase + nLoad * tw.s[2] + k * tw.s[3]) : 0.0f;
        gc_sync();
        for (int kk = 0; kk < MM_TILE; kk++) acc += xs[ty_][kk] * ws[tx_][kk];
        gc_sync();
    }
    if (m < M && n < N) y[(z * M + m) * N + n] = acc;
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
 * Quantized mat-vec for few rows: y[r, n] = sum_k x[r, k] w[n, k] with w Q8_0/Q4_0, contiguous [N, K]
 * (K a multiple of 32), unit-stride x (tx padded [B0, B1, M, K], row r over the first three axes). One warp per
 * output n (a block takes MV_ROWS consecutive n; grid y is r): eight lanes read one 32-value block together, four
 * values each, so the quants are read coalesced, the scale is one broadcast load, and a warp has four blocks in
 * flight (eight on wave64). The warp's sum is a shuffle reduction, no shared memory. (It was one block per n with a
 * thread per whole block: K = 416 kept 13 of 128 threads busy.)
 */
#define MV_ROWS 8 /* outputs n per block: LinearOps.MATVEC_ROWS; 32-wide warps take one each, wave64 ones stride over them */
GC_KERNEL void ae_matvec_q(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const u8* GC_RESTRICT w, int wt, i64 N, i64 K) {
    int lane = gc_tid() % GC_WARP_SIZE, warp = gc_tid() / GC_WARP_SIZE, warps = gc_block_dim() / GC_WARP_SIZE;
    i64 r = gc_block_y(), first = gc_block() * MV_ROWS, end = first + MV_ROWS < N ? first + MV_ROWS : N;
    const float* xr = x + td_row(tx, r);
    i64 nb = K / 32, bb = wt == DT_Q8_0 ? 34 : 18;
    // eight lanes per 32-value block, four values each: a warp has four blocks (eight on wave64) in flight at once
    int e0 = (lane % 8) * 4, blocksAtOnce = GC_WARP_SIZE / 8;
    for (i64 n = first + warp; n < end; n += warps) { // the same n for a whole warp: its shuffles see full warps
        const u8* wr = w + n * nb * bb;
        float acc = 0;
        for (i64 b = lane / 8; b < nb; b += blocksAtOnce) {
            const u8* blk = wr + b * bb;
            float d = gc_f16_to_f32((u16) (blk[0] | (blk[1] << 8)));
            const float* xb = xr + b * 32 + e0;
            float s = 0;
            if (wt == DT_Q8_0) {
                for (int j = 0; j < 4; j++) s += (float) (signed char) blk[2 + e0 + j] * xb[j];
            } else { // values 0-15 are the low nibbles of bytes 0-15, values 16-31 their high nibbles
                int shift = e0 >= 16 ? 4 : 0, at = e0 % 16;
                for (int j = 0; j < 4; j++) s += (float) (((blk[2 + at + j] >> shift) & 15) - 8) * xb[j];
            }
            acc += d * s;
        }
        for (int m = GC_WARP_SIZE / 2; m > 0; m >>= 1) acc += gc_shfl_xor(acc, m);
        if (lane == 0) y[r * N + n] = acc;
    }
}

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
