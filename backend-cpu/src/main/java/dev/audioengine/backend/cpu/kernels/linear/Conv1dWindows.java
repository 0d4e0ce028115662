package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;

/**
 * Conv1d with stride 1 and one group as a GEMM whose B panels are windows of x:
 * y[co, t] = Σ_ci Σ_k w[co, ci, k] · x[ci, t − pad + k·dil]. The im2col GEMM packs each input row K times (once per
 * tap) into every NR-column panel; this packs the NR + (K − 1)·dil positions a panel reads from each input row once,
 * and the micro-kernel reads tap k at offset k·dil of it: K times less packing (it was a sixth of Kokoro's generator
 * time, where K is 3 to 11 and the rows are thousands of steps long). Input channels go in slices of about
 * {@link #DEPTH} (channel, tap) pairs, each slice's sums added into y, as the GEMM's k slices are.
 * Needs 512-bit vectors (a 12 x 2L register tile: 24 accumulators of the 32 registers).
 */
final class Conv1dWindows {
    static final int MR = 12, L = Gemm.L, NR = 2 * L, DEPTH = 1024;

    private final Conv1dKernel.Geometry g;
    private final CpuTensor x, w, out;
    private final WorkerPool pool;
    private final int threads, channelsPerSlice, mPanels, nPanels, window, panelStride;
    private final float[] aPack;
    /** Where depth d = (ci, k) of a slice reads its packed window: ci·window + k·dil. */
    private final int[] offsets;

    private final float[][] xPack, tile;

    /** Whether this path takes the convolution (else the im2col GEMM does). */
    static boolean applies(Conv1dKernel.Geometry g, CpuTensor x, CpuTensor w) {
        return Gemm.S.vectorBitSize() >= 512
                && g.groups() == 1
                && g.stride() == 1
                && x.strides()[3] == 1
                && w.dtype() == DType.F32
                && g.k() > 1
                && g.cout() >= MR
                && g.tout() >= NR;
    }

    Conv1dWindows(Conv1dKernel.Geometry g, CpuTensor x, CpuTensor w, CpuTensor out, WorkerPool pool) {
        this.g = g;
        this.x = x;
        this.w = w;
        this.out = out;
        this.pool = pool;
        this.threads = pool.threads();
        this.channelsPerSlice = Math.max(1, Math.min(g.cin(), DEPTH / g.k()));
        this.mPanels = (g.cout() + MR - 1) / MR;
        this.nPanels = (g.tout() + NR - 1) / NR;
        this.window = NR + (g.k() - 1) * g.dil();
        this.panelStride = MR * channelsPerSlice * g.k();
        this.aPack = new float[mPanels * panelStride];
        this.offsets = new int[channelsPerSlice * g.k()];
        for (int ci = 0, d = 0; ci < channelsPerSlice; ci++)
            for (int kk = 0; kk < g.k(); kk++) offsets[d++] = ci * window + kk * g.dil();
        this.xPack = new float[threads][channelsPerSlice * window];
        this.tile = new float[threads][MR * NR];
    }

    /** y of batch b (overwritten; no bias). */
    void run(int b) {
        MatrixSink sink =
                new MatrixSink.Segment(out.segment(), out.base() + (long) b * g.cout() * g.tout() * 4, g.tout());
        for (int c0 = 0; c0 < g.cin(); c0 += channelsPerSlice) {
            int first = c0, channels = Math.min(channelsPerSlice, g.cin() - c0);
            boolean accumulate = c0 > 0;
            int aWorkers = Math.min(threads, mPanels);
            pool.parallelFor(aWorkers, t -> {
                for (int p = mPanels * t / aWorkers, end = mPanels * (t + 1) / aWorkers; p < end; p++)
                    packWeights(p, first, channels);
            });
            int chunks = Math.min(threads, nPanels);
            pool.parallelFor(chunks, t -> {
                float[] xw = xPack[t], tl = tile[t];
                for (int np = nPanels * t / chunks, end = nPanels * (t + 1) / chunks; np < end; np++) {
                    int t0 = np * NR, cols = Math.min(NR, g.tout() - t0);
                    packWindows(b, first, channels, t0, xw);
                    for (int p = 0; p < mPanels; p++) {
                        microKernel(aPack, p * panelStride, xw, offsets, channels * g.k(), tl);
                        sink.store(p * MR, t0, Math.min(MR, g.cout() - p * MR), cols, tl, NR, accumulate);
                    }
                }
            });
        }
    }

    /** Panel p of the weights for input channels [first, first + channels): [(ci, k)][MR rows], rows past Cout zero. */
    private void packWeights(int p, int first, int channels) {
        int at = p * panelStride;
        for (int ci = 0; ci < channels; ci++) {
            for (int kk = 0; kk < g.k(); kk++, at += MR) {
                for (int r = 0; r < MR; r++) {
                    int co = p * MR + r;
                    aPack[at + r] = co < g.cout() ? w.getFloat(w.offset(0, co, first + ci, kk)) : 0f;
                }
            }
        }
    }

    /** For each input channel of the slice: x at positions t0 − pad .. t0 − pad + window, zeros outside the input. */
    private void packWindows(int b, int first, int channels, int t0, float[] xw) {
        int start = t0 - g.pad(), lo = Math.max(0, -start), hi = Math.min(window, g.t() - start);
        for (int ci = 0; ci < channels; ci++) {
            int at = ci * window;
            if (hi <= lo) {
                Arrays.fill(xw, at, at + window, 0f);
                continue;
            }
            if (lo > 0) Arrays.fill(xw, at, at + lo, 0f);
            long row = x.offset(0, b, first + ci, 0);
            MemorySegment.copy(x.segment(), CpuTensor.F32, x.base() + (row + start + lo) * 4L, xw, at + lo, hi - lo);
            if (hi < window) Arrays.fill(xw, at + hi, at + window, 0f);
        }
    }

    /**
     * tile[r·NR + j] = Σ_d a[ao + d·12 + r] · xw[offsets[d] + j] over depth d = (ci, k), offsets[d] = ci·window + k·dil:
     * a 12 x 2L register tile. One flat loop with the offsets from a table: nested loops over ci and k made C2 keep the
     * accumulators in memory (slower than the im2col GEMM it replaces).
     */
    private static void microKernel(float[] a, int ao, float[] xw, int[] offsets, int depth, float[] tile) {
        FloatVector c00 = FloatVector.zero(Gemm.S), c01 = FloatVector.zero(Gemm.S);
        FloatVector c10 = FloatVector.zero(Gemm.S), c11 = FloatVector.zero(Gemm.S);
        FloatVector c20 = FloatVector.zero(Gemm.S), c21 = FloatVector.zero(Gemm.S);
        FloatVector c30 = FloatVector.zero(Gemm.S), c31 = FloatVector.zero(Gemm.S);
        FloatVector c40 = FloatVector.zero(Gemm.S), c41 = FloatVector.zero(Gemm.S);
        FloatVector c50 = FloatVector.zero(Gemm.S), c51 = FloatVector.zero(Gemm.S);
        FloatVector c60 = FloatVector.zero(Gemm.S), c61 = FloatVector.zero(Gemm.S);
        FloatVector c70 = FloatVector.zero(Gemm.S), c71 = FloatVector.zero(Gemm.S);
        FloatVector c80 = FloatVector.zero(Gemm.S), c81 = FloatVector.zero(Gemm.S);
        FloatVector c90 = FloatVector.zero(Gemm.S), c91 = FloatVector.zero(Gemm.S);
        FloatVector c100 = FloatVector.zero(Gemm.S), c101 = FloatVector.zero(Gemm.S);
        FloatVector c110 = FloatVector.zero(Gemm.S), c111 = FloatVector.zero(Gemm.S);
        for (int d = 0; d < depth; d++) {
            int ai = ao + d * MR, bi = offsets[d];
            FloatVector b0 = FloatVector.fromArray(Gemm.S, xw, bi), b1 = FloatVector.fromArray(Gemm.S, xw, bi + L);
            FloatVector x0 = FloatVector.broadcast(Gemm.S, a[ai]);
            c00 = x0.fma(b0, c00);
            c01 = x0.fma(b1, c01);
            FloatVector x1 = FloatVector.broadcast(Gemm.S, a[ai + 1]);
            c10 = x1.fma(b0, c10);
            c11 = x1.fma(b1, c11);
            FloatVector x2 = FloatVector.broadcast(Gemm.S, a[ai + 2]);
            c20 = x2.fma(b0, c20);
            c21 = x2.fma(b1, c21);
            FloatVector x3 = FloatVector.broadcast(Gemm.S, a[ai + 3]);
            c30 = x3.fma(b0, c30);
            c31 = x3.fma(b1, c31);
            FloatVector x4 = FloatVector.broadcast(Gemm.S, a[ai + 4]);
            c40 = x4.fma(b0, c40);
            c41 = x4.fma(b1, c41);
            FloatVector x5 = FloatVector.broadcast(Gemm.S, a[ai + 5]);
            c50 = x5.fma(b0, c50);
            c51 = x5.fma(b1, c51);
            FloatVector x6 = FloatVector.broadcast(Gemm.S, a[ai + 6]);
            c60 = x6.fma(b0, c60);
            c61 = x6.fma(b1, c61);
            FloatVector x7 = FloatVector.broadcast(Gemm.S, a[ai + 7]);
            c70 = x7.fma(b0, c70);
            c71 = x7.fma(b1, c71);
            FloatVector x8 = FloatVector.broadcast(Gemm.S, a[ai + 8]);
            c80 = x8.fma(b0, c80);
            c81 = x8.fma(b1, c81);
            FloatVector x9 = FloatVector.broadcast(Gemm.S, a[ai + 9]);
            c90 = x9.fma(b0, c90);
            c91 = x9.fma(b1, c91);
            FloatVector x10 = FloatVector.broadcast(Gemm.S, a[ai + 10]);
            c100 = x10.fma(b0, c100);
            c101 = x10.fma(b1, c101);
            FloatVector x11 = FloatVector.broadcast(Gemm.S, a[ai + 11]);
            c110 = x11.fma(b0, c110);
            c111 = x11.fma(b1, c111);
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
}
