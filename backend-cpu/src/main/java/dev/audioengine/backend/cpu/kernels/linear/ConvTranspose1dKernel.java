package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.RunScratch;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * PyTorch's ConvTranspose1d: x [B, Cin, T], w [Cin, Cout/groups, K], optional bias [Cout] →
 * [B, Cout, Tout] with y[co, t·stride − pad + k·dil] += x[ci, t] · w[ci, co, k]. Per (batch,
 * group) one GEMM makes the column matrix cols[(co, k), t] = Σ_ci w[ci, co, k] · x[ci, t], then
 * col2im scatters each column into the output rows (parallel over output channels, so no two
 * workers write one row).
 */
public final class ConvTranspose1dKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.ConvTranspose1d op = (Op.ConvTranspose1d) node.op();
        CpuTensor x = in[0], w = in[1], bias = in.length > 2 ? in[2] : null;
        int batch = (int) x.dim(0), cin = (int) x.dim(1), t = (int) x.dim(2), k = (int) w.dim(2);
        int groups = op.groups(),
                cinG = cin / groups,
                coutG = (int) w.dim(1),
                cout = coutG * groups,
                tout = (int) out.dim(2);
        int stride = op.stride(), pad = op.padding(), dil = op.dilation();
        int rows = coutG * k;
        // the columns (coutG·k rows of t) live in the run's scratch: tens of megabytes for Kokoro's upsampling convs at
        // long pieces, one array for every transposed conv of a graph instead of one each
        int colFloats = rows * t;
        Gemm gemm = new Gemm(ctx.pool(), rows, t, cinG, ctx.scratch());
        MatrixSource[] weights = new MatrixSource[groups];
        boolean flat =
                coutG == 1 || w.stride(1) == k * w.stride(2); // (co, k) rows evenly spaced: read as a strided matrix
        for (int g = 0; g < groups; g++) {
            weights[g] = flat
                    ? new TensorMatrix(w, (long) g * cinG * w.stride(0), rows, cinG, w.stride(2), w.stride(0))
                    : new TransposedWeights(w, g * cinG, coutG, k, cinG);
        }
        MatrixSource[] inputs = new MatrixSource[batch * groups];
        for (int p = 0; p < inputs.length; p++) {
            int b = p / groups, g = p % groups;
            inputs[p] =
                    new TensorMatrix(x, x.offset(0, b, (long) g * cinG, 0), t, cinG, x.strides()[3], x.strides()[2]);
        }
        float[] biasValues = new float[cout];
        MemorySegment os = out.segment();
        int threads = ctx.pool().threads();
        float[][] rowScratch = new float[threads][tout];
        return () -> {
            float[] cols = ctx.scratch().floats(RunScratch.CONV_TRANSPOSE_COLS, colFloats);
            MatrixSink colSink = new MatrixSink.Array(cols, 0, t);
            for (int p = 0; p < inputs.length; p++) {
                int b = p / groups, g = p % groups;
                gemm.multiply(weights[g], inputs[p], colSink);
                int chunks = Math.min(threads, coutG);
                ctx.pool().parallelFor(chunks, c -> {
                    float[] y = rowScratch[c];
                    for (int co = coutG * c / chunks, end = coutG * (c + 1) / chunks; co < end; co++) {
                        Arrays.fill(y, 0f);
                        for (int kk = 0; kk < k; kk++) {
                            int src = (co * k + kk) * t, first = kk * dil - pad;
                            for (int i = 0, pos = first; i < t; i++, pos += stride) {
                                if (pos >= 0 && pos < tout) y[pos] += cols[src + i];
                            }
                        }
                        long at = out.base() + ((long) b * cout + (long) g * coutG + co) * tout * 4;
                        MemorySegment.copy(y, 0, os, CpuTensor.F32, at, tout);
                    }
                });
            }
            if (bias != null) {
                for (int c = 0; c < cout; c++) biasValues[c] = bias.getFloat(bias.offset(0, 0, 0, c));
                Conv1dKernel.addChannelBias(out, biasValues, batch, cout, tout, ctx);
            }
        };
    }

    /** Row (co, k) of the group's weights read across input channels: w[first + ci, co, k]. */
    private record TransposedWeights(CpuTensor w, int first, int coutG, int k, int cinG) implements MatrixSource {
        @Override
        public int rows() {
            return coutG * k;
        }

        @Override
        public int cols() {
            return cinG;
        }

        @Override
        public void readRow(int r, int k0, int len, float[] dst, int off) {
            int co = r / k, kk = r % k;
            for (int j = 0; j < len; j++) dst[off + j] = w.getFloat(w.offset(0, first + k0 + j, co, kk));
        }
    }
}
