package dev.audioengine.backend.cpu.kernels.spectral;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;

/**
 * torch.stft (onesided, not normalized) as real pairs: x [B, T], window [nFft] →
 * [B, nFft/2+1, frames, 2]. With center, x is reflect-padded by nFft/2 on both sides. Frames are
 * work units (blocks of frames) over a reflect-padded copy of each signal; each worker has its own
 * {@link RealFft} (radix-2 or Bluestein underneath).
 */
public final class StftKernel implements CpuKernel {
    /** Frames per work unit: their bins are written together, FB pairs per output cache run. */
    private static final int FB = 16;

    @Override
    public boolean supports(Tensor node) {
        return node.input(0).dtype() == DType.F32 && node.input(1).dtype() == DType.F32;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Stft op = (Op.Stft) node.op();
        CpuTensor x = in[0], win = in[1];
        int n = op.nFft(), hop = op.hop(), bins = n / 2 + 1, pad = op.center() ? n / 2 : 0;
        int batch = (int) x.dim(0), t = (int) x.dim(1), frames = (int) out.dim(2), padded = t + 2 * pad;
        int threads = ctx.pool().threads();
        RealFft[] ffts = new RealFft[threads];
        double[][] frame = new double[threads][n],
                re = new double[threads][FB * bins],
                im = new double[threads][FB * bins];
        for (int i = 0; i < threads; i++) ffts[i] = new RealFft(n);
        double[] window = new double[n];
        float[] signal = new float[batch * padded];
        MemorySegment os = out.segment();
        int blocks = (frames + FB - 1) / FB, units = batch * blocks;
        return () -> {
            for (int j = 0; j < n; j++) window[j] = win.getFloat(win.offset(0, 0, 0, j));
            for (int b = 0; b < batch; b++) {
                for (int i = 0; i < t; i++) signal[b * padded + pad + i] = x.getFloat(x.offset(0, 0, b, i));
                for (int i = 1; i <= pad; i++) { // reflect: the edge sample is not repeated
                    signal[b * padded + pad - i] = signal[b * padded + pad + i];
                    signal[b * padded + pad + t - 1 + i] = signal[b * padded + pad + t - 1 - i];
                }
            }
            int chunks = Math.min(threads, units);
            ctx.pool().parallelFor(chunks, c -> {
                double[] fr = frame[c], r = re[c], i = im[c];
                for (int u = units * c / chunks, end = units * (c + 1) / chunks; u < end; u++) {
                    int b = u / blocks, f0 = u % blocks * FB, count = Math.min(FB, frames - f0);
                    for (int f = 0; f < count; f++) {
                        int at = b * padded + (f0 + f) * hop;
                        for (int j = 0; j < n; j++) fr[j] = signal[at + j] * window[j];
                        ffts[c].forward(fr, r, i, f * bins);
                    }
                    for (int k = 0; k < bins; k++) { // per bin, the block's frames are adjacent in the output
                        long o = out.base() + ((((long) b * bins + k) * frames + f0) * 2) * 4;
                        for (int f = 0; f < count; f++, o += 8) {
                            os.set(CpuTensor.F32, o, (float) r[f * bins + k]);
                            os.set(CpuTensor.F32, o + 4, (float) i[f * bins + k]);
                        }
                    }
                }
            });
        };
    }
}
