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
        // The loops over samples and frames are methods of their own, called per row and per block of frames: a
        // one-shot job runs without on-stack replacement, so a lambda walking the whole signal (Whisper: 480,000
        // samples, 3000 frames) ran every turn in the interpreter, where a small method is compiled after a few calls
        return () -> {
            for (int j = 0; j < n; j++) window[j] = win.getFloat(win.offset(0, 0, 0, j));
            for (int b = 0; b < batch; b++) {
                readSignal(x, b, t, signal, b * padded + pad);
                for (int i = 1; i <= pad; i++) { // reflect: the edge sample is not repeated
                    signal[b * padded + pad - i] = signal[b * padded + pad + i];
                    signal[b * padded + pad + t - 1 + i] = signal[b * padded + pad + t - 1 - i];
                }
            }
            int chunks = Math.min(threads, units);
            ctx.pool().parallelFor(chunks, c -> {
                for (int u = units * c / chunks, end = units * (c + 1) / chunks; u < end; u++) {
                    int b = u / blocks, f0 = u % blocks * FB, count = Math.min(FB, frames - f0);
                    block(signal, b * padded + f0 * hop, hop, window, ffts[c], frame[c], re[c], im[c], count, bins);
                    store(
                            re[c],
                            im[c],
                            os,
                            out.base() + (((long) b * bins * frames + f0) * 2) * 4,
                            frames,
                            count,
                            bins);
                }
            });
        };
    }

    /** Row {@code b} of x's {@code t} samples into {@code dst} from {@code at}: one bulk copy when unit-stride. */
    private static void readSignal(CpuTensor x, int b, int t, float[] dst, int at) {
        if (x.strides()[3] == 1) {
            MemorySegment.copy(x.segment(), CpuTensor.F32, x.base() + x.offset(0, 0, b, 0) * 4, dst, at, t);
            return;
        }
        for (int i = 0; i < t; i++) dst[at + i] = x.getFloat(x.offset(0, 0, b, i));
    }

    /** {@code count} frames from {@code start}, {@code hop} apart: windowed, transformed into re/im at f · bins. */
    private static void block(
            float[] signal,
            int start,
            int hop,
            double[] window,
            RealFft fft,
            double[] frame,
            double[] re,
            double[] im,
            int count,
            int bins) {
        int n = window.length;
        for (int f = 0; f < count; f++) {
            int at = start + f * hop;
            for (int j = 0; j < n; j++) frame[j] = signal[at + j] * window[j];
            fft.forward(frame, re, im, f * bins);
        }
    }

    /**
     * The block's {@code count} frames as [bins][frames][2] pairs from byte {@code base} (the block's first frame of
     * bin 0): per bin, the block's frames are adjacent in the output.
     */
    private static void store(double[] re, double[] im, MemorySegment os, long base, int frames, int count, int bins) {
        for (int k = 0; k < bins; k++) {
            long o = base + (long) k * frames * 8;
            for (int f = 0; f < count; f++, o += 8) {
                os.set(CpuTensor.F32, o, (float) re[f * bins + k]);
                os.set(CpuTensor.F32, o + 4, (float) im[f * bins + k]);
            }
        }
    }
}
