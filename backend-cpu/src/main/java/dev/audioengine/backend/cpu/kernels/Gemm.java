package dev.audioengine.backend.cpu.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * C[m, n] = Σ_k A[m, k] · B[n, k] (both operands row-major along k, PyTorch's {@code x @ w.T}).
 * <p>Blocked in the GotoBLAS way: k in {@link #KC}-deep slices; the A slice is packed once into
 * MR-row panels (k-major, so the micro-kernel broadcasts one A value per row), each worker packs
 * an NR-column panel of B (fits L1) and sweeps it across every A panel with an MR x NR register
 * tile of FMAs. Panels are zero-padded, so the micro-kernel has no edge cases; partial tiles are
 * trimmed when stored. Small M (mat-vec) skips packing and streams B rows once.
 * <p>An instance owns its scratch (sized at construction for the largest problem it will see)
 * and must not run two products at once.
 */
final class Gemm {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    /** KC is a multiple of 32 so k slices start on quantized block boundaries. */
    static final int MR = 6, NR = 2 * L, KC = 256;
    /** Up to this many rows of A the product streams B instead of packing it. */
    static final int SMALL_M = 4;
    private static final int NCHUNK = 64;

    private final WorkerPool pool;
    private final int threads, maxM, maxN, maxK;
    private final float[] aPack;
    private final float[][] bPack, tile, row, small;

    /** Scratch for products up to {@code maxM x maxN x maxK}. */
    Gemm(WorkerPool pool, int maxM, int maxN, int maxK) {
        this.pool = pool;
        this.threads = pool.threads();
        this.maxM = maxM;
        this.maxN = maxN;
        this.maxK = maxK;
        int kc = Math.min(KC, Math.max(1, maxK));
        int mPanels = (maxM + MR - 1) / MR;
        // packed A panels for the blocked path, or the few A rows the mat-vec path copies whole
        this.aPack = new float[Math.max(maxM > SMALL_M ? mPanels * MR * kc : 0, Math.min(maxM, SMALL_M) * Math.max(1, maxK))];
        this.bPack = new float[threads][maxM > SMALL_M ? kc * NR : 0];
        this.tile = new float[threads][Math.max(MR * NR, SMALL_M * NCHUNK)];
        this.row = new float[threads][kc];
        this.small = new float[threads][kc];
    }

    /** C = A·Bᵀ with A {@code M x K}, B {@code N x K}; C is overwritten. */
    void multiply(MatrixSource a, MatrixSource b, MatrixSink c) {
        int m = a.rows(), n = b.rows(), k = a.cols();
        if (b.cols() != k) throw new IllegalArgumentException("inner sizes differ: " + k + " vs " + b.cols());
        if (m > maxM || n > maxN || k > maxK) {
            throw new IllegalArgumentException(m + "x" + n + "x" + k + " exceeds the scratch sized for " + maxM + "x" + maxN + "x" + maxK);
        }
        if (m == 0 || n == 0) return;
        if (k == 0) {
            float[] zeros = new float[n];
            for (int i = 0; i < m; i++) c.store(i, 0, 1, n, zeros, n, false);
            return;
        }
        if (m <= SMALL_M) matVec(a, b, c, m, n, k);
        else blocked(a, b, c, m, n, k);
    }

    // ---- blocked path -------------------------------------------------------------------------

    private void blocked(MatrixSource a, MatrixSource b, MatrixSink c, int m, int n, int k) {
        int mPanels = (m + MR - 1) / MR, nPanels = (n + NR - 1) / NR;
        // split M as well when there are fewer column panels than workers
        int mSplit = Math.min(mPanels, Math.max(1, (threads + nPanels - 1) / nPanels));
        int units = nPanels * mSplit;
        int chunks = Math.min(threads, units);
        for (int pc = 0; pc < k; pc += KC) {
            int kc = Math.min(KC, k - pc), k0 = pc;
            boolean accumulate = pc > 0;
            pool.parallelFor(Math.min(threads, mPanels), t -> {
                int workers = Math.min(threads, mPanels);
                for (int p = mPanels * t / workers, end = mPanels * (t + 1) / workers; p < end; p++) {
                    a.packPanel(p * MR, Math.min(MR, m - p * MR), k0, kc, aPack, p * MR * kc, MR, row[t]);
                }
            });
            pool.parallelFor(chunks, t -> {
                float[] bp = bPack[t], tl = tile[t];
                for (int u = units * t / chunks, end = units * (t + 1) / chunks; u < end; u++) {
                    int np = u / mSplit, ms = u % mSplit;
                    int n0 = np * NR, cols = Math.min(NR, n - n0);
                    if (ms == 0 || u == units * t / chunks) b.packPanel(n0, cols, k0, kc, bp, 0, NR, row[t]);
                    for (int p = mPanels * ms / mSplit, pEnd = mPanels * (ms + 1) / mSplit; p < pEnd; p++) {
                        microKernel(aPack, p * MR * kc, bp, kc, tl);
                        c.store(p * MR, n0, Math.min(MR, m - p * MR), cols, tl, NR, accumulate);
                    }
                }
            });
        }
    }

    /** tile[r * NR + j] = Σ_kk a[ao + kk*MR + r] · b[kk*NR + j] for the 6 x 2L register tile. */
    private static void microKernel(float[] a, int ao, float[] b, int kc, float[] tile) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S);
        for (int kk = 0, ai = ao, bi = 0; kk < kc; kk++, ai += MR, bi += NR) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi), b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            c00 = x.fma(b0, c00); c01 = x.fma(b1, c01);
            x = FloatVector.broadcast(S, a[ai + 1]);
            c10 = x.fma(b0, c10); c11 = x.fma(b1, c11);
            x = FloatVector.broadcast(S, a[ai + 2]);
            c20 = x.fma(b0, c20); c21 = x.fma(b1, c21);
            x = FloatVector.broadcast(S, a[ai + 3]);
            c30 = x.fma(b0, c30); c31 = x.fma(b1, c31);
            x = FloatVector.broadcast(S, a[ai + 4]);
            c40 = x.fma(b0, c40); c41 = x.fma(b1, c41);
            x = FloatVector.broadcast(S, a[ai + 5]);
            c50 = x.fma(b0, c50); c51 = x.fma(b1, c51);
        }
        c00.intoArray(tile, 0); c01.intoArray(tile, L);
        c10.intoArray(tile, NR); c11.intoArray(tile, NR + L);
        c20.intoArray(tile, 2 * NR); c21.intoArray(tile, 2 * NR + L);
        c30.intoArray(tile, 3 * NR); c31.intoArray(tile, 3 * NR + L);
        c40.intoArray(tile, 4 * NR); c41.intoArray(tile, 4 * NR + L);
        c50.intoArray(tile, 5 * NR); c51.intoArray(tile, 5 * NR + L);
    }

    // ---- mat-vec path -----------------------------------------------------------------------------

    /**
     * A's few rows are copied once; each worker streams its share of B's rows through L1 (read in
     * place when they are unit-stride F32, else decoded {@link #KC} values at a time).
     */
    private void matVec(MatrixSource a, MatrixSource b, MatrixSink c, int m, int n, int k) {
        for (int i = 0; i < m; i++) a.readRow(i, 0, k, aPack, i * k);
        TensorMatrix dense = b instanceof TensorMatrix tm && tm.denseF32() ? tm : null;
        int chunks = Math.min(threads, (n + 15) / 16);
        pool.parallelFor(chunks, t -> {
            float[] w = small[t], out = tile[t];
            int from = (int) ((long) n * t / chunks), to = (int) ((long) n * (t + 1) / chunks);
            for (int n0 = from; n0 < to; n0 += NCHUNK) {
                int cnt = Math.min(NCHUNK, to - n0);
                for (int j = 0; j < cnt; j++) {
                    if (dense != null) {
                        dotDense(dense.segment(), dense.rowAddress(n0 + j), m, k, out, j);
                        continue;
                    }
                    FloatVector s0 = FloatVector.zero(S), s1 = s0, s2 = s0, s3 = s0;
                    float t0 = 0, t1 = 0, t2 = 0, t3 = 0;
                    for (int k0 = 0; k0 < k; k0 += KC) {
                        int len = Math.min(KC, k - k0);
                        b.readRow(n0 + j, k0, len, w, 0);
                        int kk = 0;
                        for (int upper = S.loopBound(len); kk < upper; kk += L) {
                            FloatVector wv = FloatVector.fromArray(S, w, kk);
                            s0 = FloatVector.fromArray(S, aPack, k0 + kk).fma(wv, s0);
                            if (m > 1) s1 = FloatVector.fromArray(S, aPack, k + k0 + kk).fma(wv, s1);
                            if (m > 2) s2 = FloatVector.fromArray(S, aPack, 2 * k + k0 + kk).fma(wv, s2);
                            if (m > 3) s3 = FloatVector.fromArray(S, aPack, 3 * k + k0 + kk).fma(wv, s3);
                        }
                        for (; kk < len; kk++) {
                            float wv = w[kk];
                            t0 += aPack[k0 + kk] * wv;
                            if (m > 1) t1 += aPack[k + k0 + kk] * wv;
                            if (m > 2) t2 += aPack[2 * k + k0 + kk] * wv;
                            if (m > 3) t3 += aPack[3 * k + k0 + kk] * wv;
                        }
                    }
                    out[j] = s0.reduceLanes(VectorOperators.ADD) + t0;
                    if (m > 1) out[NCHUNK + j] = s1.reduceLanes(VectorOperators.ADD) + t1;
                    if (m > 2) out[2 * NCHUNK + j] = s2.reduceLanes(VectorOperators.ADD) + t2;
                    if (m > 3) out[3 * NCHUNK + j] = s3.reduceLanes(VectorOperators.ADD) + t3;
                }
                c.store(0, n0, m, cnt, out, NCHUNK, false);
            }
        });
    }

    /** out[i * NCHUNK + j] = A row i · the F32 row at byte offset {@code at}, for i < m. */
    private void dotDense(MemorySegment seg, long at, int m, int k, float[] out, int j) {
        FloatVector s0 = FloatVector.zero(S), s1 = s0, s2 = s0, s3 = s0;
        int kk = 0;
        for (int upper = S.loopBound(k); kk < upper; kk += L) {
            FloatVector wv = FloatVector.fromMemorySegment(S, seg, at + kk * 4L, ByteOrder.nativeOrder());
            s0 = FloatVector.fromArray(S, aPack, kk).fma(wv, s0);
            if (m > 1) s1 = FloatVector.fromArray(S, aPack, k + kk).fma(wv, s1);
            if (m > 2) s2 = FloatVector.fromArray(S, aPack, 2 * k + kk).fma(wv, s2);
            if (m > 3) s3 = FloatVector.fromArray(S, aPack, 3 * k + kk).fma(wv, s3);
        }
        float t0 = s0.reduceLanes(VectorOperators.ADD), t1 = s1.reduceLanes(VectorOperators.ADD);
        float t2 = s2.reduceLanes(VectorOperators.ADD), t3 = s3.reduceLanes(VectorOperators.ADD);
        for (; kk < k; kk++) {
            float wv = seg.get(CpuTensor.F32, at + kk * 4L);
            t0 += aPack[kk] * wv;
            if (m > 1) t1 += aPack[k + kk] * wv;
            if (m > 2) t2 += aPack[2 * k + kk] * wv;
            if (m > 3) t3 += aPack[3 * k + kk] * wv;
        }
        out[j] = t0;
        if (m > 1) out[NCHUNK + j] = t1;
        if (m > 2) out[2 * NCHUNK + j] = t2;
        if (m > 3) out[3 * NCHUNK + j] = t3;
    }
}
