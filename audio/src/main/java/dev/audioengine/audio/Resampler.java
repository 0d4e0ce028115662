package dev.audioengine.audio;

/**
 * Band-limited sample-rate conversion by a rational factor L/M with a Kaiser-windowed sinc,
 * evaluated polyphase (one filter per output phase). The filter passes up to 85% of the lower
 * rate's Nyquist frequency flat, stops from that Nyquist frequency on with about 100 dB of
 * attenuation, and treats the signal as zero outside its ends.
 */
public final class Resampler {
    private static final double STOPBAND_DB = 100;
    private static final double PASSBAND_FRACTION = 0.85;
    /** Above this many phases coefficients are computed per output sample instead of tabled. */
    private static final int MAX_TABLED_PHASES = 4096;

    private final int up, down;      // L and M: out = in * up / down
    private final double cutoff;     // cycles per input sample
    private final int halfWidth;     // taps either side, in input samples
    private final double beta;
    private final float[][] table;   // [phase][tap], or null when computed on the fly

    public Resampler(int fromRate, int toRate) {
        if (fromRate <= 0 || toRate <= 0) throw new IllegalArgumentException("sample rates must be positive: " + fromRate + " -> " + toRate);
        int g = gcd(fromRate, toRate);
        up = toRate / g;
        down = fromRate / g;
        double nyquist = 0.5 * Math.min(fromRate, toRate) / fromRate; // of the lower rate, per input sample
        double transition = nyquist * (1 - PASSBAND_FRACTION);
        cutoff = nyquist - transition / 2;
        beta = 0.1102 * (STOPBAND_DB - 8.7);
        // Kaiser's order estimate: N = (A - 8) / (2.285 · Δω)
        halfWidth = (int) Math.ceil((STOPBAND_DB - 8) / (2.285 * 2 * Math.PI * transition) / 2) + 1;
        if (up <= MAX_TABLED_PHASES) {
            table = new float[up][];
            for (int p = 0; p < up; p++) table[p] = taps((double) p / up);
        } else {
            table = null;
        }
    }

    public static float[] resample(float[] x, int fromRate, int toRate) {
        return fromRate == toRate ? x.clone() : new Resampler(fromRate, toRate).process(x);
    }

    /** Number of output samples for n input samples: ceil(n · L / M). */
    public long outputLength(long n) { return (n * up + down - 1) / down; }

    public float[] process(float[] x) {
        int n = Math.toIntExact(outputLength(x.length));
        float[] y = new float[n];
        for (int m = 0; m < n; m++) {
            long pos = (long) m * down;                 // output time in units of 1/L input samples
            long base = pos / up;                       // input sample at or before it
            int phase = (int) (pos - base * up);
            float[] h = table != null ? table[phase] : taps((double) phase / up);
            long first = base - halfWidth + 1;
            double acc = 0;
            int k0 = (int) Math.max(0, -first), k1 = (int) Math.min(h.length, x.length - first);
            for (int k = k0; k < k1; k++) acc += h[k] * x[(int) (first + k)];
            y[m] = (float) acc;
        }
        return y;
    }

    /** Taps for an output at {@code frac} input samples after x[base]: tap k weighs x[base - halfWidth + 1 + k]. */
    private float[] taps(double frac) {
        float[] h = new float[2 * halfWidth];
        double sum = 0;
        double[] v = new double[h.length];
        for (int k = 0; k < h.length; k++) {
            double t = frac + halfWidth - 1 - k; // distance from the output time to the input sample
            double s = Math.abs(t) < 1e-12 ? 1 : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t * 2 * cutoff);
            double r = t / halfWidth;
            double w = Math.abs(r) >= 1 ? 0 : bessel0(beta * Math.sqrt(1 - r * r)) / bessel0(beta);
            v[k] = 2 * cutoff * s * w;
            sum += v[k];
        }
        for (int k = 0; k < h.length; k++) h[k] = (float) (v[k] / sum); // unit gain at DC for every phase
        return h;
    }

    private static double bessel0(double x) {
        double sum = 1, term = 1, q = x * x / 4;
        for (int k = 1; k < 200 && term > 1e-17 * sum; k++) {
            term *= q / ((double) k * k);
            sum += term;
        }
        return sum;
    }

    private static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
}
