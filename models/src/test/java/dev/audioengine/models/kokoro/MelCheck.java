package dev.audioengine.models.kokoro;

/** A plain log-mel for comparing two 24 kHz signals: |STFT|² (n_fft 1024, hop 240, Hann), 80 HTK mel bands 0–12 kHz, ln(max(·, 1e-5)). */
final class MelCheck {
    private static final int N_FFT = 1024, HOP = 240, MELS = 80, RATE = 24000;

    private MelCheck() {}

    static double[] logMel(float[] x) {
        int frames = 1 + Math.max(0, x.length - N_FFT) / HOP, bins = N_FFT / 2 + 1;
        double[][] fb = filters(bins);
        double[] out = new double[frames * MELS];
        double[] re = new double[bins], im = new double[bins], cos = new double[N_FFT], sin = new double[N_FFT];
        for (int m = 0; m < N_FFT; m++) {
            cos[m] = Math.cos(2 * Math.PI * m / N_FFT);
            sin[m] = Math.sin(2 * Math.PI * m / N_FFT);
        }
        for (int f = 0; f < frames; f++) {
            java.util.Arrays.fill(re, 0);
            java.util.Arrays.fill(im, 0);
            for (int m = 0; m < N_FFT && f * HOP + m < x.length; m++) {
                double v = x[f * HOP + m] * (0.5 - 0.5 * cos[m]);
                for (int k = 0, a = 0;
                        k < bins;
                        k++, a = (a + m) & (N_FFT - 1)) { // a = k·m mod N_FFT: one table, no trig per term
                    re[k] += v * cos[a];
                    im[k] -= v * sin[a];
                }
            }
            for (int j = 0; j < MELS; j++) {
                double s = 0;
                for (int k = 0; k < bins; k++) s += fb[j][k] * (re[k] * re[k] + im[k] * im[k]);
                out[f * MELS + j] = Math.log(Math.max(s, 1e-5));
            }
        }
        return out;
    }

    private static double[][] filters(int bins) {
        double lo = mel(0), hi = mel(RATE / 2.0);
        double[][] fb = new double[MELS][bins];
        for (int j = 0; j < MELS; j++) {
            double a = hz(lo + (hi - lo) * j / (MELS + 1)),
                    c = hz(lo + (hi - lo) * (j + 1) / (MELS + 1)),
                    b = hz(lo + (hi - lo) * (j + 2) / (MELS + 1));
            for (int k = 0; k < bins; k++) {
                double f = k * (double) RATE / N_FFT;
                fb[j][k] = Math.max(0, Math.min((f - a) / (c - a), (b - f) / (b - c)));
            }
        }
        return fb;
    }

    private static double mel(double hz) {
        return 2595 * Math.log10(1 + hz / 700);
    }

    private static double hz(double mel) {
        return 700 * (Math.pow(10, mel / 2595) - 1);
    }

    static double cosine(double[] a, double[] b) {
        double ab = 0, aa = 0, bb = 0;
        for (int i = 0; i < a.length; i++) {
            ab += a[i] * b[i];
            aa += a[i] * a[i];
            bb += b[i] * b[i];
        }
        return ab / Math.sqrt(aa * bb);
    }

    static double rms(float[] x) {
        double s = 0;
        for (float v : x) s += v * (double) v;
        return Math.sqrt(s / x.length);
    }
}
