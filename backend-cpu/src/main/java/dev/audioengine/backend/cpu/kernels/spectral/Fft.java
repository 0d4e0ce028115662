package dev.audioengine.backend.cpu.kernels.spectral;

/**
 * An in-place complex DFT of one fixed length, in double precision: iterative radix-2 for powers
 * of two, Bluestein's chirp-z (a power-of-two circular convolution) for any other length, e.g.
 * the 400-point frames of 16 kHz speech models. X[k] = Σ_j x[j]·e^{−2πi·jk/n}. An instance owns
 * its work arrays: one per thread.
 */
final class Fft {
    private final int n;
    private final Radix2 radix2; // length n when n is a power of two, else the convolution length
    private final double[] chirpRe, chirpIm; // e^{−iπ k²/n}, Bluestein only
    private final double[] kernelRe, kernelIm; // FFT of the conjugate chirp, Bluestein only
    private final double[] workRe, workIm;

    Fft(int n) {
        if (n < 1) throw new IllegalArgumentException("FFT length " + n);
        this.n = n;
        if (Integer.bitCount(n) == 1) {
            radix2 = new Radix2(n);
            chirpRe = chirpIm = kernelRe = kernelIm = workRe = workIm = null;
            return;
        }
        int m = Integer.highestOneBit(2 * n - 1) << 1;
        radix2 = new Radix2(m);
        chirpRe = new double[n];
        chirpIm = new double[n];
        for (int k = 0; k < n; k++) {
            long k2 = (long) k * k % (2L * n); // exact angle reduction keeps large k accurate
            double angle = -Math.PI * k2 / n;
            chirpRe[k] = Math.cos(angle);
            chirpIm[k] = Math.sin(angle);
        }
        kernelRe = new double[m];
        kernelIm = new double[m];
        for (int k = 0; k < n; k++) {
            kernelRe[k] = chirpRe[k];
            kernelIm[k] = -chirpIm[k];
            if (k > 0) {
                kernelRe[m - k] = chirpRe[k];
                kernelIm[m - k] = -chirpIm[k];
            }
        }
        radix2.transform(kernelRe, kernelIm);
        workRe = new double[m];
        workIm = new double[m];
    }

    int length() {
        return n;
    }

    /** Forward transform of re + i·im (length n) in place. */
    void forward(double[] re, double[] im) {
        if (chirpRe == null) {
            radix2.transform(re, im);
            return;
        }
        int m = workRe.length;
        for (int k = 0; k < n; k++) {
            workRe[k] = re[k] * chirpRe[k] - im[k] * chirpIm[k];
            workIm[k] = re[k] * chirpIm[k] + im[k] * chirpRe[k];
        }
        java.util.Arrays.fill(workRe, n, m, 0);
        java.util.Arrays.fill(workIm, n, m, 0);
        radix2.transform(workRe, workIm);
        for (int k = 0; k < m; k++) {
            double r = workRe[k] * kernelRe[k] - workIm[k] * kernelIm[k];
            double i = workRe[k] * kernelIm[k] + workIm[k] * kernelRe[k];
            workRe[k] = r;
            workIm[k] = -i; // conjugate: the inverse FFT below is conj(FFT(conj(.)))
        }
        radix2.transform(workRe, workIm);
        for (int k = 0; k < n; k++) {
            double cr = workRe[k] / m, ci = -workIm[k] / m;
            re[k] = cr * chirpRe[k] - ci * chirpIm[k];
            im[k] = cr * chirpIm[k] + ci * chirpRe[k];
        }
    }

    /** Unnormalized inverse, Σ_k X[k]·e^{+2πi·jk/n}, in place (conj ∘ forward ∘ conj). */
    void inverse(double[] re, double[] im) {
        for (int k = 0; k < n; k++) im[k] = -im[k];
        forward(re, im);
        for (int k = 0; k < n; k++) im[k] = -im[k];
    }

    /** Iterative decimation-in-time radix-2 FFT with precomputed twiddles and bit reversal. */
    private static final class Radix2 {
        private final int n;
        private final int[] reversed;
        private final double[] cos, sin; // e^{−2πi·k/n}, k < n/2

        Radix2(int n) {
            this.n = n;
            int bits = Integer.numberOfTrailingZeros(n);
            reversed = new int[n];
            for (int i = 0; i < n; i++) reversed[i] = bits == 0 ? 0 : Integer.reverse(i) >>> (32 - bits);
            cos = new double[Math.max(1, n / 2)];
            sin = new double[Math.max(1, n / 2)];
            for (int k = 0; k < n / 2; k++) {
                cos[k] = Math.cos(2 * Math.PI * k / n);
                sin[k] = -Math.sin(2 * Math.PI * k / n);
            }
        }

        void transform(double[] re, double[] im) {
            for (int i = 0; i < n; i++) {
                int j = reversed[i];
                if (j > i) {
                    double t = re[i];
                    re[i] = re[j];
                    re[j] = t;
                    t = im[i];
                    im[i] = im[j];
                    im[j] = t;
                }
            }
            for (int len = 2; len <= n; len <<= 1) {
                int half = len >> 1, step = n / len;
                for (int start = 0; start < n; start += len) {
                    for (int k = 0, tw = 0; k < half; k++, tw += step) {
                        int a = start + k, b = a + half;
                        double wr = cos[tw], wi = sin[tw];
                        double xr = re[b] * wr - im[b] * wi, xi = re[b] * wi + im[b] * wr;
                        re[b] = re[a] - xr;
                        im[b] = im[a] - xi;
                        re[a] += xr;
                        im[a] += xi;
                    }
                }
            }
        }
    }
}
