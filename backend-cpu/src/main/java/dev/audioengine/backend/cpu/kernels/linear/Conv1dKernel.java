package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Conv1d: x [B, Cin, T], w [Cout, Cin/groups, K], optional bias [Cout] → [B, Cout, Tout].
 * Depthwise convolutions (groups == Cin == Cout) run per channel with vectorized taps over a
 * zero-padded copy of the row. Stride-1 single-group ones over a constant weight go through the DFT where its
 * cost estimate says so ({@link Conv1dSpectral#plan}: Kokoro's K = 7 and 11 convs at 128-256 channels, not K = 3
 * ones) and the weight cache has room for their spectra. Other stride-1 single-group ones with 512-bit vectors go
 * through {@link Conv1dWindows}
 * (x packed once per panel, not once per tap). Everything else is one GEMM per (batch, group): the weight rows
 * times an implicit im2col of x, whose columns are gathered straight into the GEMM's packed
 * panels, so no T x (Cin·K) matrix is ever stored.
 */
public final class Conv1dKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    @Override
    public boolean supports(Tensor node) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Conv1d op = (Op.Conv1d) node.op();
        Geometry g = new Geometry(in[0], in[1], out, op.stride(), op.padding(), op.dilation(), op.groups());
        CpuTensor bias = in.length > 2 ? in[2] : null;
        if (op.groups() == g.cin && g.cin == g.cout) return depthwise(g, in[0], in[1], bias, out, ctx);
        if (CpuKernel.isConstant(node.input(1))) {
            Conv1dSpectral.Plan plan = Conv1dSpectral.plan(g);
            ConvSpectra spectra = plan == null ? null : ctx.panels().spectra(in[1], g, plan, ctx.pool());
            if (spectra != null) return spectral(g, plan, spectra, in[0], bias, out, ctx);
        }
        return general(g, in[0], in[1], bias, out, ctx);
    }

    record Geometry(int batch, int cin, int cout, int t, int k, int tout, int stride, int pad, int dil, int groups) {
        Geometry(CpuTensor x, CpuTensor w, CpuTensor out, int stride, int pad, int dil, int groups) {
            this(
                    (int) x.dim(0),
                    (int) x.dim(1),
                    (int) out.dim(1),
                    (int) x.dim(2),
                    (int) w.dim(2),
                    (int) out.dim(2),
                    stride,
                    pad,
                    dil,
                    groups);
        }
    }

    // ---- depthwise -------------------------------------------------------------------------------

    private static Runnable depthwise(
            Geometry g, CpuTensor x, CpuTensor w, CpuTensor bias, CpuTensor out, KernelContext ctx) {
        int threads = ctx.pool().threads();
        int padded = g.t + 2 * g.pad;
        float[][] rowScratch = new float[threads][padded + S.length()];
        float[][] outScratch = new float[threads][g.tout];
        float[][] taps = new float[threads][g.k];
        int rows = g.batch * g.cin;
        MemorySegment os = out.segment();
        return () -> {
            int chunks = Math.min(threads, rows);
            ctx.pool().parallelFor(chunks, c -> {
                float[] xp = rowScratch[c], y = outScratch[c], tap = taps[c];
                for (int r = rows * c / chunks, end = rows * (c + 1) / chunks; r < end; r++) {
                    int b = r / g.cin, ch = r % g.cin;
                    long xo = x.offset(0, b, ch, 0), xs = x.strides()[3];
                    for (int i = 0; i < g.t; i++) xp[g.pad + i] = x.getFloat(xo + i * xs);
                    for (int kk = 0; kk < g.k; kk++) tap[kk] = w.getFloat(w.offset(0, ch, 0, kk));
                    float b0 = bias == null ? 0f : bias.getFloat(bias.offset(0, 0, 0, ch));
                    depthwiseRow(xp, tap, y, g, b0);
                    MemorySegment.copy(y, 0, os, CpuTensor.F32, out.base() + (long) r * g.tout * 4, g.tout);
                }
            });
        };
    }

    /** y[t] = bias + Σ_k tap[k] · xp[t·stride + k·dil], xp zero-padded (its pad margins stay zero). */
    private static void depthwiseRow(float[] xp, float[] tap, float[] y, Geometry g, float bias) {
        int t = 0;
        if (g.stride == 1) {
            for (int upper = S.loopBound(g.tout); t < upper; t += S.length()) {
                FloatVector acc = FloatVector.broadcast(S, bias);
                for (int kk = 0; kk < g.k; kk++) {
                    acc = FloatVector.fromArray(S, xp, t + kk * g.dil).fma(FloatVector.broadcast(S, tap[kk]), acc);
                }
                acc.intoArray(y, t);
            }
        }
        for (; t < g.tout; t++) {
            float acc = bias;
            for (int kk = 0, at = t * g.stride; kk < g.k; kk++, at += g.dil) acc += tap[kk] * xp[at];
            y[t] = acc;
        }
    }

    // ---- general: GEMM over an implicit im2col ------------------------------------------------------

    private static Runnable general(
            Geometry g, CpuTensor x, CpuTensor w, CpuTensor bias, CpuTensor out, KernelContext ctx) {
        if (Conv1dWindows.applies(g, x, w)) return windows(g, x, w, bias, out, ctx);
        int coutG = g.cout / g.groups, cinG = g.cin / g.groups, depth = cinG * g.k;
        Gemm gemm = new Gemm(ctx.pool(), coutG, g.tout, depth, ctx.scratch());
        int products = g.batch * g.groups;
        MatrixSource[] weights = new MatrixSource[g.groups];
        boolean flat = cinG == 1 || w.stride(1) == g.k * w.stride(2); // (ci, k) columns evenly spaced: a strided matrix
        for (int gr = 0; gr < g.groups; gr++) {
            weights[gr] = flat
                    ? new TensorMatrix(w, (long) gr * coutG * w.stride(0), coutG, depth, w.stride(0), w.stride(2))
                    : new WeightRows(w, gr * coutG, coutG, cinG, g.k);
        }
        MatrixSource[] cols = new MatrixSource[products];
        MatrixSink[] sinks = new MatrixSink[products];
        for (int p = 0; p < products; p++) {
            int b = p / g.groups, gr = p % g.groups;
            cols[p] = new Im2col(x, b, gr * cinG, cinG, g);
            sinks[p] = new MatrixSink.Segment(
                    out.segment(), out.base() + ((long) b * g.cout + (long) gr * coutG) * g.tout * 4, g.tout);
        }
        float[] biasValues = new float[g.cout];
        return () -> {
            for (int p = 0; p < products; p++) gemm.multiply(weights[p % g.groups], cols[p], sinks[p]);
            if (bias != null) {
                for (int c = 0; c < g.cout; c++) biasValues[c] = bias.getFloat(bias.offset(0, 0, 0, c));
                addChannelBias(out, biasValues, g.batch, g.cout, g.tout, ctx);
            }
        };
    }

    private static Runnable windows(
            Geometry g, CpuTensor x, CpuTensor w, CpuTensor bias, CpuTensor out, KernelContext ctx) {
        return perBatch(new Conv1dWindows(g, x, w, out, ctx.pool())::run, g, bias, out, ctx);
    }

    private static Runnable spectral(
            Geometry g,
            Conv1dSpectral.Plan plan,
            ConvSpectra spectra,
            CpuTensor x,
            CpuTensor bias,
            CpuTensor out,
            KernelContext ctx) {
        return perBatch(new Conv1dSpectral(g, plan, x, out, spectra, ctx)::run, g, bias, out, ctx);
    }

    /** Runs {@code batch} for every batch item (it overwrites y), then adds the bias. */
    private static Runnable perBatch(
            java.util.function.IntConsumer batch, Geometry g, CpuTensor bias, CpuTensor out, KernelContext ctx) {
        float[] biasValues = new float[g.cout];
        return () -> {
            for (int b = 0; b < g.batch; b++) batch.accept(b);
            if (bias != null) {
                for (int c = 0; c < g.cout; c++) biasValues[c] = bias.getFloat(bias.offset(0, 0, 0, c));
                addChannelBias(out, biasValues, g.batch, g.cout, g.tout, ctx);
            }
        };
    }

    /** out[b, c, :] += bias[c], for an output [B, C, T] in contiguous F32. */
    static void addChannelBias(CpuTensor out, float[] bias, int batch, int channels, int t, KernelContext ctx) {
        MemorySegment os = out.segment();
        ctx.pool().parallelRanges(batch * channels, (from, to) -> {
            for (int r = from; r < to; r++) {
                FloatVector bv = FloatVector.broadcast(S, bias[r % channels]);
                long at = out.base() + (long) r * t * 4;
                int i = 0;
                for (int upper = S.loopBound(t); i < upper; i += S.length()) {
                    FloatVector.fromMemorySegment(S, os, at + i * 4L, java.nio.ByteOrder.nativeOrder())
                            .add(bv)
                            .intoMemorySegment(os, at + i * 4L, java.nio.ByteOrder.nativeOrder());
                }
                for (; i < t; i++)
                    os.set(CpuTensor.F32, at + i * 4L, os.get(CpuTensor.F32, at + i * 4L) + bias[r % channels]);
            }
        });
    }

    /** Row co of group weights: w[first + co, ci, k] flattened over (ci, k). */
    private record WeightRows(CpuTensor w, int first, int rows, int cinG, int k) implements MatrixSource {
        @Override
        public int cols() {
            return cinG * k;
        }

        @Override
        public void readRow(int r, int k0, int len, float[] dst, int off) {
            for (int j = 0; j < len; j++) {
                int col = k0 + j;
                dst[off + j] = w.getFloat(w.offset(0, first + r, col / k, col % k));
            }
        }
    }

    /** Row t of the im2col matrix of batch b: x[b, first + ci, t·stride − pad + k·dil] over (ci, k), 0 outside. */
    private record Im2col(CpuTensor x, int b, int first, int cinG, Geometry g) implements MatrixSource {
        @Override
        public int rows() {
            return g.tout;
        }

        @Override
        public int cols() {
            return cinG * g.k;
        }

        @Override
        public void readRow(int r, int k0, int len, float[] dst, int off) {
            int start = r * g.stride - g.pad;
            long ts = x.strides()[3];
            int ci = k0 / g.k, kk = k0 % g.k;
            long rowBase = x.offset(0, b, first + ci, 0);
            for (int j = 0; j < len; j++) {
                int pos = start + kk * g.dil;
                dst[off + j] = pos >= 0 && pos < g.t ? x.getFloat(rowBase + pos * ts) : 0f;
                if (++kk == g.k) {
                    kk = 0;
                    rowBase = x.offset(0, b, first + ++ci, 0);
                }
            }
        }

        /**
         * Column (ci, k) of a panel of output positions is x[ci] read at positions
         * start + r·stride: one bulk copy for stride 1 over a unit-stride x, else a strided gather;
         * positions outside the input (the padding) are zeros.
         */
        @Override
        public void packPanel(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] row) {
            long ts = x.strides()[3];
            int s = g.stride, ci = k0 / g.k, kk = k0 % g.k;
            for (int j = 0; j < kc; j++) {
                int at = off + j * width;
                long rowBase = x.offset(0, b, first + ci, 0);
                int start = r0 * s - g.pad + kk * g.dil; // input position of panel row 0
                // rows r in [lo, hi) read inside the input: 0 <= start + r·s < t
                int lo = start >= 0 ? 0 : Math.min(rows, (-start + s - 1) / s);
                int hi = start >= g.t ? 0 : Math.min(rows, (g.t - start + s - 1) / s);
                if (hi < lo) hi = lo;
                if (lo > 0) Arrays.fill(dst, at, at + lo, 0f);
                if (s == 1 && ts == 1) {
                    if (hi > lo)
                        MemorySegment.copy(
                                x.segment(),
                                CpuTensor.F32,
                                x.base() + (rowBase + start + lo) * 4L,
                                dst,
                                at + lo,
                                hi - lo);
                } else {
                    for (int r = lo; r < hi; r++) dst[at + r] = x.getFloat(rowBase + (long) (start + r * s) * ts);
                }
                if (hi < width) Arrays.fill(dst, at + hi, at + width, 0f);
                if (++kk == g.k) {
                    kk = 0;
                    ci++;
                }
            }
        }
    }
}
