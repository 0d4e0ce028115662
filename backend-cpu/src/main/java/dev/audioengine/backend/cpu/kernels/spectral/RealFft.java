package dev.audioengine.backend.cpu.kernels.spectral;

/**
 * The DFT of a real signal of length n and its inverse, in double precision. For even n the
 * signal is folded into a complex one of length n/2 (even samples real, odd samples imaginary),
 * transformed with one half-length {@link Fft} and untangled with the twiddles e^{−2πi·k/n},
 * halving the work; odd n uses a full-length complex transform. One instance per thread.
 */
final class RealFft {
    private final int n, half;
    private final Fft fft;
    private final double[] re, im;
    private final double[] twRe, twIm; // e^{−2πi·k/n}, k <= n/2

    RealFft(int n) {
        this.n = n;
        this.half = n % 2 == 0 ? n / 2 : 0;
        int len = half > 0 ? half : n;
        this.fft = new Fft(len);
        this.re = new double[len];
        this.im = new double[len];
        this.twRe = new double[n / 2 + 1];
        this.twIm = new double[n / 2 + 1];
        for (int k = 0; k <= n / 2; k++) {
            twRe[k] = Math.cos(2 * Math.PI * k / n);
            twIm[k] = -Math.sin(2 * Math.PI * k / n);
        }
    }

    /** Bins 0..n/2 of X[k] = Σ_j x[j]·e^{−2πi·jk/n}, written from index {@code at} of the outputs. */
    void forward(double[] x, double[] outRe, double[] outIm, int at) {
        if (half == 0) {
            System.arraycopy(x, 0, re, 0, n);
            java.util.Arrays.fill(im, 0);
            fft.forward(re, im);
            System.arraycopy(re, 0, outRe, at, n / 2 + 1);
            System.arraycopy(im, 0, outIm, at, n / 2 + 1);
            return;
        }
        for (int j = 0; j < half; j++) {
            re[j] = x[2 * j];
            im[j] = x[2 * j + 1];
        }
        fft.forward(re, im);
        for (int k = 0; k <= half; k++) {
            int a = k % half, b = (half - k) % half;
            double zr = re[a], zi = im[a], cr = re[b], ci = -im[b]; // Z[k] and conj(Z[h−k])
            double er = (zr + cr) / 2, ei = (zi + ci) / 2; // DFT of the even samples
            double or = (zi - ci) / 2, oi = -(zr - cr) / 2; // DFT of the odd samples: (Z − conj Z')/(2i)
            outRe[at + k] = er + twRe[k] * or - twIm[k] * oi;
            outIm[at + k] = ei + twRe[k] * oi + twIm[k] * or;
        }
    }

    /**
     * x[j] = (1/n) Σ_k X[k] (bins read from index {@code at})·e^{+2πi·jk/n} over the Hermitian extension of bins 0..n/2, as irfft
     * computes it (the imaginary parts of bin 0 and, for even n, bin n/2 are ignored).
     */
    void inverse(double[] inRe, double[] inIm, int at, double[] x) {
        if (half == 0) {
            for (int k = 0; k < n; k++) {
                int src = k <= n / 2 ? k : n - k;
                re[k] = inRe[at + src];
                im[k] = src == 0 ? 0 : k <= n / 2 ? inIm[at + src] : -inIm[at + src];
            }
            fft.inverse(re, im);
            for (int j = 0; j < n; j++) x[j] = re[j] / n;
            return;
        }
        for (int k = 0; k < half; k++) {
            double xr = inRe[at + k], xi = k == 0 ? 0 : inIm[at + k];
            double yr = inRe[at + half - k],
                    yi = k == 0 ? 0 : -inIm[at + half - k]; // conj(X[h−k]); X[h] is real for irfft
            double er = (xr + yr) / 2, ei = (xi + yi) / 2;
            double dr = (xr - yr) / 2, di = (xi - yi) / 2;
            double or = dr * twRe[k] + di * twIm[k],
                    oi = di * twRe[k] - dr * twIm[k]; // times conj(twiddle) = e^{+2πik/n}
            re[k] = er - oi; // Z = E + i·O
            im[k] = ei + or;
        }
        fft.inverse(re, im);
        for (int j = 0; j < half; j++) {
            x[2 * j] = re[j] / half;
            x[2 * j + 1] = im[j] / half;
        }
    }
}
