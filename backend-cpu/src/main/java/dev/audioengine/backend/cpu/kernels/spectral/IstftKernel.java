package dev.audioengine.backend.cpu.kernels.spectral;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;

/**
 * torch.istft: spectrum [B, nFft/2+1, frames, 2], window [nFft] → [B, length]. Each frame is an
 * inverse real DFT (imaginary parts of the DC and, for even nFft, Nyquist bins ignored, as irfft
 * does) times the window; frames are computed in parallel into scratch, then every output sample
 * gathers the frames that overlap it and is divided by the overlap-added squared window. As in
 * torch, an envelope at or below 1e-11 inside the kept range is an error (the window fails NOLA).
 */
public final class IstftKernel implements CpuKernel {
    /** Frames per work unit: their bins are read together, FB pairs per input cache run. */
    private static final int FB = 16;

    private static final double ENVELOPE_FLOOR = 1e-11;

    @Override
    public boolean supports(Tensor node) {
        return node.input(0).dtype() == DType.F32 && node.input(1).dtype() == DType.F32;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Istft op = (Op.Istft) node.op();
        CpuTensor spec = in[0], win = in[1];
        int n = op.nFft(), hop = op.hop(), bins = n / 2 + 1, start = op.center() ? n / 2 : 0;
        int batch = (int) spec.dim(0), frames = (int) spec.dim(2), length = (int) op.length();
        int full = n + hop * (frames - 1);
        int threads = ctx.pool().threads();
        RealFft[] ffts = new RealFft[threads];
        double[][] re = new double[threads][FB * bins],
                im = new double[threads][FB * bins],
                frame = new double[threads][n];
        for (int i = 0; i < threads; i++) ffts[i] = new RealFft(n);
        double[] window = new double[n], envelope = new double[full];
        float[] framed = new float[batch * frames * n];
        MemorySegment os = out.segment();
        int blocks = (frames + FB - 1) / FB, units = batch * blocks;
        return () -> {
            for (int j = 0; j < n; j++) window[j] = win.getFloat(win.offset(0, 0, 0, j));
            java.util.Arrays.fill(envelope, 0);
            for (int f = 0; f < frames; f++) for (int j = 0; j < n; j++) envelope[f * hop + j] += window[j] * window[j];
            for (int i = start; i < start + length; i++) {
                if (!(envelope[i] > ENVELOPE_FLOOR)) {
                    throw new IllegalArgumentException(
                            "istft: the window's overlap-added square is " + envelope[i] + " at sample " + i
                                    + " (n_fft " + n + ", hop " + hop
                                    + "); this window/hop pair fails NOLA, so the signal cannot be"
                                    + " recovered; use a window that overlaps (e.g. Hann with hop <= n_fft/2)");
                }
            }
            int chunks = Math.min(threads, units);
            ctx.pool().parallelFor(chunks, c -> {
                double[] r = re[c], i = im[c], x = frame[c];
                for (int u = units * c / chunks, end = units * (c + 1) / chunks; u < end; u++) {
                    int b = u / blocks, f0 = u % blocks * FB, count = Math.min(FB, frames - f0);
                    for (int k = 0; k < bins; k++) { // per bin, the block's frames are adjacent in the input
                        long o = spec.offset(b, k, f0, 0), fs = spec.strides()[2], s = spec.strides()[3];
                        for (int f = 0; f < count; f++, o += fs) {
                            r[f * bins + k] = spec.getFloat(o);
                            i[f * bins + k] = spec.getFloat(o + s);
                        }
                    }
                    for (int f = 0; f < count; f++) {
                        ffts[c].inverse(r, i, f * bins, x);
                        int at = (b * frames + f0 + f) * n;
                        for (int j = 0; j < n; j++) framed[at + j] = (float) (x[j] * window[j]);
                    }
                }
            });
            ctx.pool().parallelRanges(batch * length, (from, to) -> {
                for (int idx = from; idx < to; idx++) {
                    int b = idx / length, p = start + idx % length;
                    int fFirst = Math.max(0, (p - n + hop) / hop), fLast = Math.min(frames - 1, p / hop);
                    double acc = 0;
                    for (int f = fFirst; f <= fLast; f++) {
                        int j = p - f * hop;
                        if (j < n) acc += framed[(b * frames + f) * n + j];
                    }
                    os.set(CpuTensor.F32, out.base() + idx * 4L, (float) (acc / envelope[p]));
                }
            });
        };
    }
}
