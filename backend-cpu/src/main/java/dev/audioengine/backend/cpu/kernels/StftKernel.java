package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

import java.lang.foreign.MemorySegment;

/**
 * torch.stft (onesided, not normalized) as real pairs: x [B, T], window [nFft] →
 * [B, nFft/2+1, frames, 2]. With center, x is reflect-padded by nFft/2 on both sides. Frames are
 * independent work units; each worker has its own {@link Fft} (radix-2 or Bluestein).
 */
final class StftKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return node.input(0).dtype() == DType.F32 && node.input(1).dtype() == DType.F32;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Stft op = (Op.Stft) node.op();
        CpuTensor x = in[0], win = in[1];
        int n = op.nFft(), hop = op.hop(), bins = n / 2 + 1, pad = op.center() ? n / 2 : 0;
        int batch = (int) x.dim(0), t = (int) x.dim(1), frames = (int) out.dim(2);
        int threads = ctx.pool().threads();
        Fft[] ffts = new Fft[threads];
        double[][] re = new double[threads][n], im = new double[threads][n];
        for (int i = 0; i < threads; i++) ffts[i] = new Fft(n);
        double[] window = new double[n];
        MemorySegment os = out.segment();
        int units = batch * frames;
        return () -> {
            for (int j = 0; j < n; j++) window[j] = win.getFloat(win.offset(0, 0, 0, j));
            int chunks = Math.min(threads, units);
            ctx.pool().parallelFor(chunks, c -> {
                double[] r = re[c], i = im[c];
                for (int u = units * c / chunks, end = units * (c + 1) / chunks; u < end; u++) {
                    int b = u / frames, f = u % frames;
                    for (int j = 0; j < n; j++) {
                        int src = f * hop + j - pad;
                        if (src < 0) src = -src;                  // reflect, edge sample not repeated
                        else if (src >= t) src = 2 * (t - 1) - src;
                        r[j] = x.getFloat(x.offset(0, 0, b, src)) * window[j];
                        i[j] = 0;
                    }
                    ffts[c].forward(r, i);
                    for (int k = 0; k < bins; k++) {
                        long at = out.base() + ((((long) b * bins + k) * frames + f) * 2) * 4;
                        os.set(CpuTensor.F32, at, (float) r[k]);
                        os.set(CpuTensor.F32, at + 4, (float) i[k]);
                    }
                }
            });
        };
    }
}
