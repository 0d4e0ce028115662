package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/** stft, istft (torch.stft / torch.istft semantics, as direct DFT sums) and complex magnitude. */
final class SpectralReference {
    private static final double ENVELOPE_FLOOR = 1e-11;

    private SpectralReference() {}

    /**
     * x [B, T], window [n] → [B, n/2+1, frames, 2]: X[f, m] = Σ_j xp[m·hop + j] · w[j] · e^{−2πi·f·j/n},
     * where xp is x reflect-padded by n/2 on both sides when centered (no normalization, onesided).
     */
    static double[] stft(Tensor node, Op.Stft op, double[] x, double[] window) {
        int b = (int) node.input(0).dim(0), t = (int) node.input(0).dim(1);
        int n = op.nFft(), bins = n / 2 + 1, frames = (int) node.dim(2), pad = op.center() ? n / 2 : 0;
        double[] y = new double[b * bins * frames * 2];
        double[] frame = new double[n];
        for (int bi = 0; bi < b; bi++) {
            for (int m = 0; m < frames; m++) {
                for (int j = 0; j < n; j++) {
                    int src = m * op.hop() + j - pad;
                    if (src < 0) src = -src;
                    if (src >= t) src = 2 * (t - 1) - src;
                    frame[j] = x[bi * t + src] * window[j];
                }
                for (int f = 0; f < bins; f++) {
                    double re = 0, im = 0;
                    for (int j = 0; j < n; j++) {
                        double angle = -2 * Math.PI * (((long) f * j) % n) / n;
                        re += frame[j] * Math.cos(angle);
                        im += frame[j] * Math.sin(angle);
                    }
                    int o = ((bi * bins + f) * frames + m) * 2;
                    y[o] = re;
                    y[o + 1] = im;
                }
            }
        }
        return y;
    }

    /**
     * spec [B, n/2+1, frames, 2], window [n] → [B, length]: each frame's inverse real DFT (the
     * imaginary parts of the DC and, for even n, Nyquist bins are ignored, as irfft does) times
     * the window, overlap-added at m·hop, divided by the overlap-added squared window, then
     * trimmed by n/2 at the start when centered and cut to {@code length}. Like torch, an envelope
     * at or below 1e-11 inside the kept range is an error (the window fails the NOLA condition).
     */
    static double[] istft(Tensor node, Op.Istft op, double[] spec, double[] window) {
        int b = (int) node.dim(0),
                n = op.nFft(),
                bins = n / 2 + 1,
                frames = (int) node.input(0).dim(2);
        int hop = op.hop(), full = n + hop * (frames - 1), start = op.center() ? n / 2 : 0;
        int length = (int) op.length();
        double[] envelope = new double[full];
        for (int m = 0; m < frames; m++) {
            for (int j = 0; j < n; j++) envelope[m * hop + j] += window[j] * window[j];
        }
        for (int i = start; i < start + length; i++) {
            if (!(envelope[i] > ENVELOPE_FLOOR)) {
                throw new IllegalArgumentException("istft: the window's overlap-added square is " + envelope[i]
                        + " at sample " + i + " (n_fft " + n + ", hop " + hop
                        + "); the window/hop pair fails NOLA, so the signal cannot be recovered");
            }
        }
        double[] y = new double[b * length];
        double[] acc = new double[full];
        for (int bi = 0; bi < b; bi++) {
            java.util.Arrays.fill(acc, 0);
            for (int m = 0; m < frames; m++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int f = 0; f < bins; f++) {
                        int o = ((bi * bins + f) * frames + m) * 2;
                        double angle = 2 * Math.PI * (((long) f * j) % n) / n;
                        boolean selfConjugate = f == 0 || (n % 2 == 0 && f == n / 2);
                        double term = spec[o] * Math.cos(angle) - (selfConjugate ? 0 : spec[o + 1] * Math.sin(angle));
                        s += selfConjugate ? term : 2 * term;
                    }
                    acc[m * hop + j] += s / n * window[j];
                }
            }
            for (int i = 0; i < length; i++) y[bi * length + i] = acc[start + i] / envelope[start + i];
        }
        return y;
    }

    /** |z| = sqrt(re² + im²) over the trailing pair axis. */
    static double[] magnitude(double[] z) {
        double[] y = new double[z.length / 2];
        for (int i = 0; i < y.length; i++) y[i] = Math.hypot(z[2 * i], z[2 * i + 1]);
        return y;
    }
}
