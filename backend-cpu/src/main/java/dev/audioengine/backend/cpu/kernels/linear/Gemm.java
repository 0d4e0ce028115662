package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.RunScratch;
import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * C[m, n] = Σ_k A[m, k] · B[n, k] (both operands row-major along k, PyTorch's {@code x @ w.T}).
 * <p>Blocked in the GotoBLAS way: k in {@link #KC}-deep slices; the A slice is packed once into
 * MR-row panels (k-major, so the micro-kernel broadcasts one A value per row), each worker packs
 * an NR-column panel of B (in L2) and sweeps it across every A panel with an MR x NR register
 * tile of FMAs. Panels are zero-padded, so the micro-kernel has no edge cases; partial tiles are
 * trimmed when stored. Small M (mat-vec) skips packing and streams B rows once.
 * <p>Sizes were chosen by measuring on Zen 4 (512-bit vectors): the micro-kernel alone runs at
 * the FMA peak for any MR of 6-14 with A streaming from L3 and B from L2, so what matters is the
 * traffic around it. Every k slice reads and writes all of C once, so a deeper slice (KC = 1024,
 * a 128 KB B panel, still in L2) costs a fraction of what KC = 256 did on large products. MR = 12
 * halves the B loads per FMA against MR = 6 (same speed alone; kept for the L2-resident B panel).
 * <p>An instance owns its scratch (sized at construction for the largest problem it will see)
 * and must not run two products at once.
 */
public final class Gemm {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    /**
     * MR x 2 accumulators + 2 B vectors + 1 broadcast must fit the vector registers: 12 rows where
     * vectors are 512 bits (AVX-512: 32 registers), 6 elsewhere (AVX2: 16). KC is a multiple of 32
     * so k slices start on quantized block boundaries.
     */
    static final int MR = S.vectorBitSize() >= 512 ? 12 : 6, NR = 2 * L, KC = 1024;
    /** Up to this many rows of A the product streams B instead of packing it. */
    static final int SMALL_M = 8;
    /** Up to this many rows of A a product with packed B reads the panels directly (register tile of 4 rows), more go through the blocked path. */
    static final int PACKED_FEW_M = 4;

    private static final int NCHUNK = 64;
    /** Multiply-adds below which a few-row product runs on the calling thread alone. */
    static final long PARALLEL_WORK = 1 << 16;
    /**
     * Rows of a mat-vec read side by side from far-apart places (independent memory streams keep
     * more misses in flight): 8 where 32 vector registers hold their 16 sums (AVX-512), else 4
     * (Q8_0 only there).
     */
    static final int Q8_STREAMS = S.vectorBitSize() >= 512 ? 8 : 4;
    /** Rows of each stream per call of a stream kernel (the tile holds 8 x 32 results). */
    static final int STREAM_ROWS = 32;

    private final WorkerPool pool;
    private final int threads, maxM, maxN, maxK;
    private final boolean packedAOnly;
    /**
     * Packed A panels (or the few A rows a mat-vec copies whole): the largest scratch, sized by the product's height.
     * Taken from the compiled run's {@link RunScratch} when there is one, so the matmuls of one graph share one array
     * (a Moonshine encoder graph per window length held ~50 of them, megabytes each); else this GEMM's own.
     */
    private float[] aPack;

    private final int aPackLength;
    private final RunScratch shared;
    private final float[][] bPack, tile, row, small, lanes4x4;
    /** small[t] as a segment, for the few decoded B rows past the four-row tiles. */
    private final MemorySegment[] decodedRows;

    /** Scratch for products up to {@code maxM x maxN x maxK}. */
    Gemm(WorkerPool pool, int maxM, int maxN, int maxK) {
        this(pool, maxM, maxN, maxK, false, null);
    }

    /** As {@link #Gemm(WorkerPool, int, int, int)}, the A panels in {@code shared}'s slot for them (kernels of one compiled run). */
    public Gemm(WorkerPool pool, int maxM, int maxN, int maxK, RunScratch shared) {
        this(pool, maxM, maxN, maxK, false, shared);
    }

    /**
     * Scratch for products over a pre-packed A ({@link #multiply(PackedRows, MatrixSource, MatrixSink)}) of any
     * height, B up to {@code maxN x maxK}: no A panels of its own, so only that form of product runs on it.
     */
    static Gemm overPackedA(WorkerPool pool, int maxN, int maxK) {
        return new Gemm(pool, Integer.MAX_VALUE, maxN, maxK, true, null);
    }

    private Gemm(WorkerPool pool, int maxM, int maxN, int maxK, boolean packedAOnly, RunScratch shared) {
        this.pool = pool;
        this.threads = pool.threads();
        this.maxM = maxM;
        this.maxN = maxN;
        this.maxK = maxK;
        this.packedAOnly = packedAOnly;
        int kc = Math.min(KC, Math.max(1, maxK));
        // packed A panels for the blocked path, or the few A rows the mat-vec path copies whole
        this.aPackLength = packedAOnly
                ? 0
                : Math.max(
                        maxM > PACKED_FEW_M ? (maxM + MR - 1) / MR * MR * kc : 0,
                        Math.min(maxM, SMALL_M) * Math.max(1, maxK));
        this.shared = shared;
        this.aPack = shared == null ? new float[aPackLength] : null;
        this.bPack = new float[threads][maxM > SMALL_M ? kc * NR : 0];
        this.tile = new float[threads][Math.max(MR * NR, SMALL_M * NCHUNK)];
        // where the blocked path may run, a k slice of MR rows: row-major F32 A panels are copied out whole, then
        // transposed (TensorMatrix.packPanel); one k slice otherwise
        this.row = new float[threads][maxM > PACKED_FEW_M ? MR * kc : kc];
        // four whole B rows decoded for few-row products (2..SMALL_M rows), else one k slice
        int fewRows = packedAOnly ? 0 : Math.min(maxM, SMALL_M);
        this.small = new float[threads][Math.max(kc, fewRows >= 2 ? 4 * maxK : 0)];
        this.lanes4x4 = new float[threads][16 * L];
        this.decodedRows = new MemorySegment[threads];
        for (int t = 0; t < threads; t++) decodedRows[t] = MemorySegment.ofArray(small[t]);
    }

    /** How a product with B as it is stored (not packed ahead of time) runs; see {@link #path}. */
    enum Path {
        /** One A row against B rows read as {@link #Q8_STREAMS} parallel streams (unit-stride F32 or F16 with 16-lane vectors, Q8_0). */
        ROW_STREAMS,
        /** 2..{@link #SMALL_M} A rows against four B rows at a time (F32 read in place, F16/BF16/strided decoded). */
        ROW_TILES,
        /** Up to {@link #SMALL_M} A rows against one B row at a time (quantized blocks decoded in registers; one A row over other B). */
        ROWS,
        /** More rows: B packed into panels per k slice, register-blocked micro-kernel. */
        BLOCKED
    }

    /** The path an {@code m}-row product takes with B as stored. */
    static Path path(int m, MatrixSource b) {
        if (m > SMALL_M) return Path.BLOCKED;
        TensorMatrix tm = b instanceof TensorMatrix t ? t : null;
        boolean quantized = tm != null && tm.fusedQuantizedDot();
        if (m == 1 && tm != null && (quantized ? tm.isQ8() : (tm.denseF32() || tm.denseF16()) && Q8_STREAMS == 8))
            return Path.ROW_STREAMS;
        return m > 1 && !quantized ? Path.ROW_TILES : Path.ROWS;
    }

    /** C = A·Bᵀ with A {@code M x K}, B {@code N x K}; C is overwritten. */
    public void multiply(MatrixSource a, MatrixSource b, MatrixSink c) {
        requireAScratch();
        int m = a.rows(), n = b.rows(), k = a.cols();
        if (nothingToMultiply(m, n, k, b.cols(), c)) return;
        Path path = path(m, b);
        if (path == Path.BLOCKED) blocked(a, null, b, null, c, m, n, k);
        else matVec(path, a, b, c, m, n, k);
    }

    /** C = A·Bᵀ with B packed ahead of time (a constant weight): few rows read B's panels directly, more go through the blocked path without packing B. */
    public void multiply(MatrixSource a, PackedPanels b, MatrixSink c) {
        requireAScratch();
        int m = a.rows(), n = b.n, k = a.cols();
        if (nothingToMultiply(m, n, k, b.k, c)) return;
        if (m <= PACKED_FEW_M) packedFewRows(a, b, c, m, n, k);
        else blocked(a, null, null, b, c, m, n, k);
    }

    /**
     * C = A·Bᵀ with A packed ahead of time into MR-row panels (a constant, or data a kernel laid out itself) and B
     * packed here, per column panel: the blocked path without the per-call packing of A.
     */
    void multiply(PackedRows a, MatrixSource b, MatrixSink c) {
        int m = a.m, n = b.rows(), k = a.k;
        if (nothingToMultiply(m, n, k, b.cols(), c)) return;
        blocked(null, a, b, null, c, m, n, k);
    }

    private void requireAScratch() {
        if (packedAOnly) throw new IllegalStateException("this GEMM was sized for pre-packed A operands only");
        if (shared != null) aPack = shared.floats(RunScratch.GEMM_A, aPackLength);
    }

    /** Checks the sizes against B's ({@code bk}) and the scratch; writes the zero C of an empty sum (k = 0); true when that is all there is. */
    private boolean nothingToMultiply(int m, int n, int k, int bk, MatrixSink c) {
        if (bk != k) throw new IllegalArgumentException("inner sizes differ: " + k + " vs " + bk);
        if (m > maxM || n > maxN || k > maxK) {
            throw new IllegalArgumentException(
                    m + "x" + n + "x" + k + " exceeds the scratch sized for " + maxM + "x" + maxN + "x" + maxK);
        }
        if (m == 0 || n == 0) return true;
        if (k > 0) return false;
        float[] zeros = new float[n];
        for (int i = 0; i < m; i++) c.store(i, 0, 1, n, zeros, n, false);
        return true;
    }

    // ---- blocked path -------------------------------------------------------------------------

    /**
     * Exactly one of {@code a} (packed here, per k slice) and {@code aPacked} (packed before) is given, and one of
     * {@code b} (packed here, per k slice) and {@code packed} (packed at compile time).
     */
    private void blocked(
            MatrixSource a,
            PackedRows aPacked,
            MatrixSource b,
            PackedPanels packed,
            MatrixSink c,
            int m,
            int n,
            int k) {
        int mPanels = (m + MR - 1) / MR, nPanels = (n + NR - 1) / NR;
        // split M as well when there are fewer column panels than workers
        int mSplit = Math.min(mPanels, Math.max(1, (threads + nPanels - 1) / nPanels));
        int units = nPanels * mSplit;
        int chunks = Math.min(threads, units);
        float[] aData = aPacked != null ? aPacked.data : aPack;
        for (int pc = 0; pc < k; pc += KC) {
            int kc = Math.min(KC, k - pc), k0 = pc;
            boolean accumulate = pc > 0;
            if (aPacked == null) {
                pool.parallelFor(Math.min(threads, mPanels), t -> {
                    int workers = Math.min(threads, mPanels);
                    for (int p = mPanels * t / workers, end = mPanels * (t + 1) / workers; p < end; p++) {
                        a.packPanel(p * MR, Math.min(MR, m - p * MR), k0, kc, aPack, p * MR * kc, MR, row[t]);
                    }
                });
            }
            pool.parallelFor(chunks, t -> {
                float[] bp = bPack[t], tl = tile[t];
                for (int u = units * t / chunks, end = units * (t + 1) / chunks; u < end; u++) {
                    int np = u / mSplit, ms = u % mSplit;
                    int n0 = np * NR, cols = Math.min(NR, n - n0);
                    float[] panel = bp;
                    int bo = 0;
                    if (packed != null) {
                        panel = packed.data;
                        bo = packed.offset(np, k0);
                    } else if (ms == 0 || u == units * t / chunks) {
                        b.packPanel(n0, cols, k0, kc, bp, 0, NR, row[t]);
                    }
                    for (int p = mPanels * ms / mSplit, pEnd = mPanels * (ms + 1) / mSplit; p < pEnd; p++) {
                        int ao = aPacked != null ? aPacked.offset(p, k0) : p * MR * kc;
                        if (MR == 12) microKernel12(aData, ao, panel, bo, kc, tl);
                        else microKernel6(aData, ao, panel, bo, kc, tl);
                        c.store(p * MR, n0, Math.min(MR, m - p * MR), cols, tl, NR, accumulate);
                    }
                }
            });
        }
    }

    /** tile[r * NR + j] = Σ_kk a[ao + kk*MR + r] · b[bo + kk*NR + j] for a 12 x 2L register tile (24 accumulators: needs the 32 vector registers of AVX-512); package-private for GemmSpeed. */
    static void microKernel12(float[] a, int ao, float[] b, int bo, int kc, float[] tile) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S);
        FloatVector c60 = FloatVector.zero(S), c61 = FloatVector.zero(S);
        FloatVector c70 = FloatVector.zero(S), c71 = FloatVector.zero(S);
        FloatVector c80 = FloatVector.zero(S), c81 = FloatVector.zero(S);
        FloatVector c90 = FloatVector.zero(S), c91 = FloatVector.zero(S);
        FloatVector c100 = FloatVector.zero(S), c101 = FloatVector.zero(S);
        FloatVector c110 = FloatVector.zero(S), c111 = FloatVector.zero(S);
        for (int kk = 0; kk < kc; kk++) {
            int ai = ao + kk * 12, bi = bo + kk * NR;
            FloatVector b0 = FloatVector.fromArray(S, b, bi), b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector x0 = FloatVector.broadcast(S, a[ai]);
            c00 = x0.fma(b0, c00);
            c01 = x0.fma(b1, c01);
            FloatVector x1 = FloatVector.broadcast(S, a[ai + 1]);
            c10 = x1.fma(b0, c10);
            c11 = x1.fma(b1, c11);
            FloatVector x2 = FloatVector.broadcast(S, a[ai + 2]);
            c20 = x2.fma(b0, c20);
            c21 = x2.fma(b1, c21);
            FloatVector x3 = FloatVector.broadcast(S, a[ai + 3]);
            c30 = x3.fma(b0, c30);
            c31 = x3.fma(b1, c31);
            FloatVector x4 = FloatVector.broadcast(S, a[ai + 4]);
            c40 = x4.fma(b0, c40);
            c41 = x4.fma(b1, c41);
            FloatVector x5 = FloatVector.broadcast(S, a[ai + 5]);
            c50 = x5.fma(b0, c50);
            c51 = x5.fma(b1, c51);
            FloatVector x6 = FloatVector.broadcast(S, a[ai + 6]);
            c60 = x6.fma(b0, c60);
            c61 = x6.fma(b1, c61);
            FloatVector x7 = FloatVector.broadcast(S, a[ai + 7]);
            c70 = x7.fma(b0, c70);
            c71 = x7.fma(b1, c71);
            FloatVector x8 = FloatVector.broadcast(S, a[ai + 8]);
            c80 = x8.fma(b0, c80);
            c81 = x8.fma(b1, c81);
            FloatVector x9 = FloatVector.broadcast(S, a[ai + 9]);
            c90 = x9.fma(b0, c90);
            c91 = x9.fma(b1, c91);
            FloatVector x10 = FloatVector.broadcast(S, a[ai + 10]);
            c100 = x10.fma(b0, c100);
            c101 = x10.fma(b1, c101);
            FloatVector x11 = FloatVector.broadcast(S, a[ai + 11]);
            c110 = x11.fma(b0, c110);
            c111 = x11.fma(b1, c111);
        }
        c00.intoArray(tile, 0 * NR);
        c01.intoArray(tile, 0 * NR + L);
        c10.intoArray(tile, 1 * NR);
        c11.intoArray(tile, 1 * NR + L);
        c20.intoArray(tile, 2 * NR);
        c21.intoArray(tile, 2 * NR + L);
        c30.intoArray(tile, 3 * NR);
        c31.intoArray(tile, 3 * NR + L);
        c40.intoArray(tile, 4 * NR);
        c41.intoArray(tile, 4 * NR + L);
        c50.intoArray(tile, 5 * NR);
        c51.intoArray(tile, 5 * NR + L);
        c60.intoArray(tile, 6 * NR);
        c61.intoArray(tile, 6 * NR + L);
        c70.intoArray(tile, 7 * NR);
        c71.intoArray(tile, 7 * NR + L);
        c80.intoArray(tile, 8 * NR);
        c81.intoArray(tile, 8 * NR + L);
        c90.intoArray(tile, 9 * NR);
        c91.intoArray(tile, 9 * NR + L);
        c100.intoArray(tile, 10 * NR);
        c101.intoArray(tile, 10 * NR + L);
        c110.intoArray(tile, 11 * NR);
        c111.intoArray(tile, 11 * NR + L);
    }

    /** tile[r * NR + j] = Σ_kk a[ao + kk*MR + r] · b[bo + kk*NR + j] for a 6 x 2L register tile (12 accumulators: fits 16 vector registers). */
    private static void microKernel6(float[] a, int ao, float[] b, int bo, int kc, float[] tile) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S);
        for (int kk = 0, ai = ao, bi = bo; kk < kc; kk++, ai += 6, bi += NR) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi), b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector x = FloatVector.broadcast(S, a[ai]);
            c00 = x.fma(b0, c00);
            c01 = x.fma(b1, c01);
            x = FloatVector.broadcast(S, a[ai + 1]);
            c10 = x.fma(b0, c10);
            c11 = x.fma(b1, c11);
            x = FloatVector.broadcast(S, a[ai + 2]);
            c20 = x.fma(b0, c20);
            c21 = x.fma(b1, c21);
            x = FloatVector.broadcast(S, a[ai + 3]);
            c30 = x.fma(b0, c30);
            c31 = x.fma(b1, c31);
            x = FloatVector.broadcast(S, a[ai + 4]);
            c40 = x.fma(b0, c40);
            c41 = x.fma(b1, c41);
            x = FloatVector.broadcast(S, a[ai + 5]);
            c50 = x.fma(b0, c50);
            c51 = x.fma(b1, c51);
        }
        c00.intoArray(tile, 0);
        c01.intoArray(tile, L);
        c10.intoArray(tile, NR);
        c11.intoArray(tile, NR + L);
        c20.intoArray(tile, 2 * NR);
        c21.intoArray(tile, 2 * NR + L);
        c30.intoArray(tile, 3 * NR);
        c31.intoArray(tile, 3 * NR + L);
        c40.intoArray(tile, 4 * NR);
        c41.intoArray(tile, 4 * NR + L);
        c50.intoArray(tile, 5 * NR);
        c51.intoArray(tile, 5 * NR + L);
    }

    // ---- few rows times packed panels ---------------------------------------------------------

    /**
     * Up to {@link #PACKED_FEW_M} rows of A (copied once) times every packed panel: broadcast-FMA into
     * an m x NR register tile, B read as unit-stride vectors, no lane sums. Products under
     * {@link #PARALLEL_WORK} multiply-adds stay on the caller's thread: a hand-off costs more.
     */
    private void packedFewRows(MatrixSource a, PackedPanels b, MatrixSink c, int m, int n, int k) {
        for (int i = 0; i < m; i++) a.readRow(i, 0, k, aPack, i * k);
        int panels = b.panels;
        int chunks = (long) m * n * k < PARALLEL_WORK ? 1 : Math.min(threads, panels);
        pool.parallelFor(chunks, t -> {
            float[] tl = tile[t];
            for (int p = panels * t / chunks, end = panels * (t + 1) / chunks; p < end; p++) {
                int n0 = p * NR;
                if (m == 1) panelRow1(aPack, k, b.data, b.offset(p, 0), tl);
                else panelRows4(aPack, m, k, b.data, b.offset(p, 0), tl);
                c.store(0, n0, m, Math.min(NR, n - n0), tl, NR, false);
            }
        });
    }

    /** tile[0, j] = Σ_kk a[kk] · b[bo + kk*NR + j]: even and odd k in separate sums, so four FMAs are in flight, not two. */
    private static void panelRow1(float[] a, int k, float[] b, int bo, float[] tile) {
        FloatVector e0 = FloatVector.zero(S), e1 = e0, o0 = e0, o1 = e0;
        int kk = 0;
        for (int bi = bo; kk + 1 < k; kk += 2, bi += 2 * NR) {
            FloatVector x = FloatVector.broadcast(S, a[kk]), y = FloatVector.broadcast(S, a[kk + 1]);
            e0 = x.fma(FloatVector.fromArray(S, b, bi), e0);
            e1 = x.fma(FloatVector.fromArray(S, b, bi + L), e1);
            o0 = y.fma(FloatVector.fromArray(S, b, bi + NR), o0);
            o1 = y.fma(FloatVector.fromArray(S, b, bi + NR + L), o1);
        }
        if (kk < k) {
            FloatVector x = FloatVector.broadcast(S, a[kk]);
            int bi = bo + kk * NR;
            e0 = x.fma(FloatVector.fromArray(S, b, bi), e0);
            e1 = x.fma(FloatVector.fromArray(S, b, bi + L), e1);
        }
        e0.add(o0).intoArray(tile, 0);
        e1.add(o1).intoArray(tile, L);
    }

    /** tile[r, j] = Σ_kk a[r*k + kk] · b[bo + kk*NR + j] for rows r < m, 2 <= m <= 4. */
    private static void panelRows4(float[] a, int m, int k, float[] b, int bo, float[] tile) {
        FloatVector c00 = FloatVector.zero(S),
                c01 = c00,
                c10 = c00,
                c11 = c00,
                c20 = c00,
                c21 = c00,
                c30 = c00,
                c31 = c00;
        for (int kk = 0, bi = bo; kk < k; kk++, bi += NR) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi), b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector x = FloatVector.broadcast(S, a[kk]);
            c00 = x.fma(b0, c00);
            c01 = x.fma(b1, c01);
            x = FloatVector.broadcast(S, a[k + kk]);
            c10 = x.fma(b0, c10);
            c11 = x.fma(b1, c11);
            if (m > 2) {
                x = FloatVector.broadcast(S, a[2 * k + kk]);
                c20 = x.fma(b0, c20);
                c21 = x.fma(b1, c21);
            }
            if (m > 3) {
                x = FloatVector.broadcast(S, a[3 * k + kk]);
                c30 = x.fma(b0, c30);
                c31 = x.fma(b1, c31);
            }
        }
        c00.intoArray(tile, 0);
        c01.intoArray(tile, L);
        c10.intoArray(tile, NR);
        c11.intoArray(tile, NR + L);
        if (m > 2) {
            c20.intoArray(tile, 2 * NR);
            c21.intoArray(tile, 2 * NR + L);
        }
        if (m > 3) {
            c30.intoArray(tile, 3 * NR);
            c31.intoArray(tile, 3 * NR + L);
        }
    }

    // ---- mat-vec path -----------------------------------------------------------------------------

    /**
     * A's few rows are copied once; each worker streams its share of B's rows through L1, read in
     * place when they are unit-stride F32 or Q8_0/Q4_0 blocks, else decoded into scratch. One A row
     * reads B rows as parallel streams ({@link #rowStreams}); more rows take B four rows at a time
     * against up to four A rows ({@link #dense4x4}: 16 sums per pass, 8 loads per 16 FMAs), which is
     * what keeps a weight that is a graph input (a KV cache, a weight not known at compile time) as
     * fast as a packed constant: packing B per run, as the blocked path does, cost several times that at 5-8 rows.
     * Every path sums a row in the same order (L lanes over k, {@link LaneSum}'s tree, then the k
     * tail), so a row's result does not depend on M, on the path or on the threads.
     */
    private void matVec(Path path, MatrixSource a, MatrixSource b, MatrixSink c, int m, int n, int k) {
        for (int i = 0; i < m; i++) a.readRow(i, 0, k, aPack, i * k);
        TensorMatrix dense = b instanceof TensorMatrix tm && tm.denseF32() ? tm : null;
        TensorMatrix quantized = b instanceof TensorMatrix tm && tm.fusedQuantizedDot() ? tm : null;
        int chunks = Math.min(threads, (n + 15) / 16);
        // Q4_0 stays one row at a time: an 8-stream Q4_0 loop was slower (the JIT did not keep its vectors in
        // registers)
        if (path == Path.ROW_STREAMS) {
            TensorMatrix streamed = (TensorMatrix) b;
            pool.parallelFor(
                    chunks,
                    t -> rowStreams(
                            streamed,
                            c,
                            k,
                            (int) ((long) n * t / chunks),
                            (int) ((long) n * (t + 1) / chunks),
                            tile[t]));
            return;
        }
        if (path == Path.ROW_TILES) {
            pool.parallelFor(
                    chunks,
                    t -> rowTiles(
                            dense, b, c, m, k, (int) ((long) n * t / chunks), (int) ((long) n * (t + 1) / chunks), t));
            return;
        }
        pool.parallelFor(chunks, t -> {
            float[] w = small[t], out = tile[t], lanes = new float[4 * L];
            int from = (int) ((long) n * t / chunks), to = (int) ((long) n * (t + 1) / chunks);
            for (int n0 = from; n0 < to; n0 += NCHUNK) {
                int cnt = Math.min(NCHUNK, to - n0);
                for (int j = 0; j < cnt; j++) {
                    if (quantized != null) {
                        // four A rows per pass: a block is decoded once per pass
                        for (int g = 0; g < m; g += 4)
                            quantized.dotQuantized(
                                    n0 + j, aPack, g * k, Math.min(4, m - g), k, out, g * NCHUNK + j, NCHUNK, lanes);
                        continue;
                    }
                    if (dense != null) { // one row where 8 streams do not fit the registers
                        dotDense(dense.segment(), dense.rowAddress(n0 + j), aPack, 0, 1, k, out, j, NCHUNK, lanes);
                        continue;
                    }
                    // KC slices decoded in turn; KC is a multiple of L, so only the last slice has a tail,
                    // added after the lane sum as every other path does
                    FloatVector s0 = FloatVector.zero(S);
                    int k0 = 0, len, kk;
                    while (true) {
                        len = Math.min(KC, k - k0);
                        b.readRow(n0 + j, k0, len, w, 0);
                        kk = 0;
                        for (int upper = S.loopBound(len); kk < upper; kk += L) {
                            s0 = FloatVector.fromArray(S, aPack, k0 + kk).fma(FloatVector.fromArray(S, w, kk), s0);
                        }
                        if (k0 + len >= k) break;
                        k0 += KC;
                    }
                    s0.intoArray(lanes, 0);
                    float t0 = LaneSum.of(lanes, 0);
                    for (; kk < len; kk++) t0 += aPack[k0 + kk] * w[kk];
                    out[j] = t0;
                }
                c.store(0, n0, m, cnt, out, NCHUNK, false);
            }
        });
    }

    /**
     * Rows [from, to) of B against the m (2..8) rows of A: four B rows at a time, read in place
     * (unit-stride F32) or decoded whole into the worker's scratch, each against A's rows four at
     * a time while they are in L1; the last (to - from) % 4 rows one by one.
     */
    private void rowTiles(TensorMatrix dense, MatrixSource b, MatrixSink c, int m, int k, int from, int to, int t) {
        float[] out = tile[t], lanes = lanes4x4[t], w = small[t];
        int ld = NCHUNK;
        for (int n0 = from; n0 < to; n0 += NCHUNK) {
            int cnt = Math.min(NCHUNK, to - n0), j = 0;
            for (; j + 4 <= cnt; j += 4) {
                if (dense != null) {
                    long at = dense.rowAddress(n0 + j), step = dense.rowAddress(n0 + j + 1) - at;
                    for (int g = 0; g < m; g += 4)
                        dense4x4(
                                dense.segment(),
                                at,
                                step,
                                aPack,
                                g * k,
                                Math.min(4, m - g),
                                k,
                                out,
                                g * ld + j,
                                ld,
                                lanes);
                } else {
                    for (int q = 0; q < 4; q++) b.readRow(n0 + j + q, 0, k, w, q * k);
                    for (int g = 0; g < m; g += 4)
                        decoded4x4(w, 0, k, aPack, g * k, Math.min(4, m - g), k, out, g * ld + j, ld, lanes);
                }
            }
            for (; j < cnt; j++) {
                if (dense != null) {
                    for (int g = 0; g < m; g += 4)
                        dotDense(
                                dense.segment(),
                                dense.rowAddress(n0 + j),
                                aPack,
                                g * k,
                                Math.min(4, m - g),
                                k,
                                out,
                                g * ld + j,
                                ld,
                                lanes);
                } else {
                    // the last (to - from) % 4 rows only: the heap view of the scratch costs nothing measurable here
                    b.readRow(n0 + j, 0, k, w, 0);
                    for (int g = 0; g < m; g += 4)
                        dotDense(decodedRows[t], 0, aPack, g * k, Math.min(4, m - g), k, out, g * ld + j, ld, lanes);
                }
            }
            c.store(0, n0, m, cnt, out, ld, false);
        }
    }

    /**
     * out[i * ld + j + q] = A row i · B row q for i < rows (1..4) and q < 4, A row i at
     * a[ao + i * k], B row q unit-stride F32 at byte offset {@code at + q * step} of {@code seg}
     * (the weight itself or decoded scratch): 16 sums, reduced together two eight-vector trees at
     * a time (the same tree as {@link LaneSum} per sum), then the k tail in order.
     */
    private static void dense4x4(
            MemorySegment seg,
            long at,
            long step,
            float[] a,
            int ao,
            int rows,
            int k,
            float[] out,
            int j,
            int ld,
            float[] lanes) {
        FloatVector z = FloatVector.zero(S);
        FloatVector c00 = z, c01 = z, c02 = z, c03 = z, c10 = z, c11 = z, c12 = z, c13 = z;
        FloatVector c20 = z, c21 = z, c22 = z, c23 = z, c30 = z, c31 = z, c32 = z, c33 = z;
        long at1 = at + step, at2 = at1 + step, at3 = at2 + step;
        int kk = 0;
        for (int upper = S.loopBound(k); kk < upper; kk += L) {
            long o = kk * 4L;
            FloatVector b0 = FloatVector.fromMemorySegment(S, seg, at + o, ByteOrder.nativeOrder());
            FloatVector b1 = FloatVector.fromMemorySegment(S, seg, at1 + o, ByteOrder.nativeOrder());
            FloatVector b2 = FloatVector.fromMemorySegment(S, seg, at2 + o, ByteOrder.nativeOrder());
            FloatVector b3 = FloatVector.fromMemorySegment(S, seg, at3 + o, ByteOrder.nativeOrder());
            FloatVector x = FloatVector.fromArray(S, a, ao + kk);
            c00 = x.fma(b0, c00);
            c01 = x.fma(b1, c01);
            c02 = x.fma(b2, c02);
            c03 = x.fma(b3, c03);
            if (rows > 1) {
                x = FloatVector.fromArray(S, a, ao + k + kk);
                c10 = x.fma(b0, c10);
                c11 = x.fma(b1, c11);
                c12 = x.fma(b2, c12);
                c13 = x.fma(b3, c13);
            }
            if (rows > 2) {
                x = FloatVector.fromArray(S, a, ao + 2 * k + kk);
                c20 = x.fma(b0, c20);
                c21 = x.fma(b1, c21);
                c22 = x.fma(b2, c22);
                c23 = x.fma(b3, c23);
            }
            if (rows > 3) {
                x = FloatVector.fromArray(S, a, ao + 3 * k + kk);
                c30 = x.fma(b0, c30);
                c31 = x.fma(b1, c31);
                c32 = x.fma(b2, c32);
                c33 = x.fma(b3, c33);
            }
        }
        c00.intoArray(lanes, 0);
        c01.intoArray(lanes, L);
        c02.intoArray(lanes, 2 * L);
        c03.intoArray(lanes, 3 * L);
        c10.intoArray(lanes, 4 * L);
        c11.intoArray(lanes, 5 * L);
        c12.intoArray(lanes, 6 * L);
        c13.intoArray(lanes, 7 * L);
        c20.intoArray(lanes, 8 * L);
        c21.intoArray(lanes, 9 * L);
        c22.intoArray(lanes, 10 * L);
        c23.intoArray(lanes, 11 * L);
        c30.intoArray(lanes, 12 * L);
        c31.intoArray(lanes, 13 * L);
        c32.intoArray(lanes, 14 * L);
        c33.intoArray(lanes, 15 * L);
        for (int i = 0; i < rows; i++) {
            for (int q = 0; q < 4; q++) {
                float s = LaneSum.of(lanes, (4 * i + q) * L);
                long bq = at + q * step;
                for (int r = kk; r < k; r++) s += a[ao + i * k + r] * seg.get(CpuTensor.F32, bq + r * 4L);
                out[i * ld + j + q] = s;
            }
        }
    }
    /** {@link #dense4x4} over B rows decoded into {@code w} (row q at w[at + q * step]): a kernel of its own, so neither sees two kinds of memory. */
    private static void decoded4x4(
            float[] w,
            int at,
            int step,
            float[] a,
            int ao,
            int rows,
            int k,
            float[] out,
            int j,
            int ld,
            float[] lanes) {
        FloatVector z = FloatVector.zero(S);
        FloatVector c00 = z, c01 = z, c02 = z, c03 = z, c10 = z, c11 = z, c12 = z, c13 = z;
        FloatVector c20 = z, c21 = z, c22 = z, c23 = z, c30 = z, c31 = z, c32 = z, c33 = z;
        int at1 = at + step, at2 = at1 + step, at3 = at2 + step;
        int kk = 0;
        for (int upper = S.loopBound(k); kk < upper; kk += L) {
            FloatVector b0 = FloatVector.fromArray(S, w, at + kk);
            FloatVector b1 = FloatVector.fromArray(S, w, at1 + kk);
            FloatVector b2 = FloatVector.fromArray(S, w, at2 + kk);
            FloatVector b3 = FloatVector.fromArray(S, w, at3 + kk);
            FloatVector x = FloatVector.fromArray(S, a, ao + kk);
            c00 = x.fma(b0, c00);
            c01 = x.fma(b1, c01);
            c02 = x.fma(b2, c02);
            c03 = x.fma(b3, c03);
            if (rows > 1) {
                x = FloatVector.fromArray(S, a, ao + k + kk);
                c10 = x.fma(b0, c10);
                c11 = x.fma(b1, c11);
                c12 = x.fma(b2, c12);
                c13 = x.fma(b3, c13);
            }
            if (rows > 2) {
                x = FloatVector.fromArray(S, a, ao + 2 * k + kk);
                c20 = x.fma(b0, c20);
                c21 = x.fma(b1, c21);
                c22 = x.fma(b2, c22);
                c23 = x.fma(b3, c23);
            }
            if (rows > 3) {
                x = FloatVector.fromArray(S, a, ao + 3 * k + kk);
                c30 = x.fma(b0, c30);
                c31 = x.fma(b1, c31);
                c32 = x.fma(b2, c32);
                c33 = x.fma(b3, c33);
            }
        }
        c00.intoArray(lanes, 0);
        c01.intoArray(lanes, L);
        c02.intoArray(lanes, 2 * L);
        c03.intoArray(lanes, 3 * L);
        c10.intoArray(lanes, 4 * L);
        c11.intoArray(lanes, 5 * L);
        c12.intoArray(lanes, 6 * L);
        c13.intoArray(lanes, 7 * L);
        c20.intoArray(lanes, 8 * L);
        c21.intoArray(lanes, 9 * L);
        c22.intoArray(lanes, 10 * L);
        c23.intoArray(lanes, 11 * L);
        c30.intoArray(lanes, 12 * L);
        c31.intoArray(lanes, 13 * L);
        c32.intoArray(lanes, 14 * L);
        c33.intoArray(lanes, 15 * L);
        for (int i = 0; i < rows; i++) {
            for (int q = 0; q < 4; q++) {
                float s = LaneSum.of(lanes, (4 * i + q) * L);
                int bq = at + q * step;
                for (int r = kk; r < k; r++) s += a[ao + i * k + r] * w[bq + r];
                out[i * ld + j + q] = s;
            }
        }
    }
    /**
     * One activation row times rows [from, to) of b (Q8_0 or unit-stride F32): the range is
     * cut in {@link #Q8_STREAMS} parts and row i of every part is read in the same loop (see
     * {@link TensorMatrix#dotQ8Quad}); leftover rows alone. Each kernel call takes
     * {@link #STREAM_ROWS} rows of every part; the tile holds the parts' results side by side.
     */
    private void rowStreams(TensorMatrix b, MatrixSink c, int k, int from, int to, float[] out) {
        // one loop per row type, so each compiled loop inlines only its own dot product
        if (b.isQ8()) q8Streams(b, c, k, from, to, out);
        else if (b.denseF16()) f16Streams(b, c, k, from, to, out);
        else f32Streams(b, c, k, from, to, out);
    }

    private void f16Streams(TensorMatrix b, MatrixSink c, int k, int from, int to, float[] out) {
        float[] lanes = new float[L];
        int part = (to - from) / 8, width = STREAM_ROWS;
        for (int i0 = 0; i0 < part; i0 += width) {
            int cnt = Math.min(width, part - i0);
            b.dotF16Oct(from + i0, cnt, part, aPack, k, out, width);
            storeStreams(c, 8, from, part, i0, cnt, width, out);
        }
        for (int r = from + 8 * part; r < to; r++) {
            out[0] = b.dotF16Row(r, aPack, k, lanes);
            c.store(0, r, 1, 1, out, NCHUNK, false);
        }
    }

    private void q8Streams(TensorMatrix b, MatrixSink c, int k, int from, int to, float[] out) {
        float[] lanes = new float[4 * L];
        int part = (to - from) / Q8_STREAMS, width = STREAM_ROWS;
        for (int i0 = 0; i0 < part; i0 += width) {
            int cnt = Math.min(width, part - i0);
            if (Q8_STREAMS == 8) b.dotQ8Oct(from + i0, cnt, part, aPack, k, out, width);
            else for (int j = 0; j < cnt; j++) b.dotQ8Quad(from + i0 + j, part, aPack, k, out, j, width, lanes);
            storeStreams(c, Q8_STREAMS, from, part, i0, cnt, width, out);
        }
        for (int r = from + Q8_STREAMS * part; r < to; r++) {
            b.dotQuantized(r, aPack, 0, 1, k, out, 0, NCHUNK, lanes);
            c.store(0, r, 1, 1, out, NCHUNK, false);
        }
    }

    private void f32Streams(TensorMatrix b, MatrixSink c, int k, int from, int to, float[] out) {
        float[] lanes = new float[4 * L];
        int part = (to - from) / 8, width = STREAM_ROWS;
        for (int i0 = 0; i0 < part; i0 += width) {
            int cnt = Math.min(width, part - i0);
            b.dotF32Oct(from + i0, cnt, part, aPack, k, out, width);
            storeStreams(c, 8, from, part, i0, cnt, width, out);
        }
        for (int r = from + 8 * part; r < to; r++) {
            dotDense(b.segment(), b.rowAddress(r), aPack, 0, 1, k, out, 0, NCHUNK, lanes);
            c.store(0, r, 1, 1, out, NCHUNK, false);
        }
    }

    /** Stores the streams' results, {@code width} apart in the tile, to their rows of C. */
    private static void storeStreams(
            MatrixSink c, int streams, int from, int part, int i0, int cnt, int width, float[] out) {
        for (int q = 0; q < streams; q++) {
            if (q > 0) System.arraycopy(out, q * width, out, 0, cnt);
            c.store(0, from + q * part + i0, 1, cnt, out, width, false);
        }
    }

    /** out[i * ld + j] = A row i (at a[ao + i * k]) · the F32 row at byte offset {@code at}, for i < m (1..4). */
    private static void dotDense(
            MemorySegment seg, long at, float[] a, int ao, int m, int k, float[] out, int j, int ld, float[] lanes) {
        FloatVector s0 = FloatVector.zero(S), s1 = s0, s2 = s0, s3 = s0;
        int kk = 0;
        for (int upper = S.loopBound(k); kk < upper; kk += L) {
            FloatVector wv = FloatVector.fromMemorySegment(S, seg, at + kk * 4L, ByteOrder.nativeOrder());
            s0 = FloatVector.fromArray(S, a, ao + kk).fma(wv, s0);
            if (m > 1) s1 = FloatVector.fromArray(S, a, ao + k + kk).fma(wv, s1);
            if (m > 2) s2 = FloatVector.fromArray(S, a, ao + 2 * k + kk).fma(wv, s2);
            if (m > 3) s3 = FloatVector.fromArray(S, a, ao + 3 * k + kk).fma(wv, s3);
        }
        s0.intoArray(lanes, 0);
        s1.intoArray(lanes, L);
        s2.intoArray(lanes, 2 * L);
        s3.intoArray(lanes, 3 * L);
        float t0 = LaneSum.of(lanes, 0), t1 = LaneSum.of(lanes, L);
        float t2 = LaneSum.of(lanes, 2 * L), t3 = LaneSum.of(lanes, 3 * L);
        for (; kk < k; kk++) {
            float wv = seg.get(CpuTensor.F32, at + kk * 4L);
            t0 += a[ao + kk] * wv;
            if (m > 1) t1 += a[ao + k + kk] * wv;
            if (m > 2) t2 += a[ao + 2 * k + kk] * wv;
            if (m > 3) t3 += a[ao + 3 * k + kk] * wv;
        }
        out[j] = t0;
        if (m > 1) out[ld + j] = t1;
        if (m > 2) out[2 * ld + j] = t2;
        if (m > 3) out[3 * ld + j] = t3;
    }
}
