package dev.audioengine.audio;

/**
 * The resampler's filter: a Kaiser-windowed sinc for a rational factor L/M, split into L phases
 * (one per output position between two input samples). It passes up to 85% of the lower rate's
 * Nyquist frequency flat and stops from that Nyquist frequency on with about 100 dB of
 * attenuation. Immutable and thread-safe once built.
 */
final class PolyphaseFilter {
    private static final double STOPBAND_DB = 100;
    private static final double PASSBAND_FRACTION = 0.85;
    /** Rows are padded with zero taps to this multiple, so vector loops have no remainder. */
    static final int ROW_MULTIPLE = 16;
    /** Above this many coefficients the phases are computed per output sample instead of tabled. */
    private static final long MAX_TABLE_FLOATS = 1 << 22;

    final int up, down; // L and M: out = in * up / down
    final int halfWidth; // taps either side, in input samples
    /** Taps per phase, rounded up to {@link #ROW_MULTIPLE}; tap k weighs x[base - halfWidth + 1 + k]. */
    final int stride;

    private final double cutoff; // cycles per input sample
    private final double beta;
    private final float[] table; // [phase * stride + k], or null when computed on the fly

    PolyphaseFilter(int fromRate, int toRate) {
        if (fromRate <= 0 || toRate <= 0)
            throw new IllegalArgumentException("sample rates must be positive: " + fromRate + " -> " + toRate);
        int g = gcd(fromRate, toRate);
        up = toRate / g;
        down = fromRate / g;
        double nyquist = 0.5 * Math.min(fromRate, toRate) / fromRate; // of the lower rate, per input sample
        double transition = nyquist * (1 - PASSBAND_FRACTION);
        cutoff = nyquist - transition / 2;
        beta = 0.1102 * (STOPBAND_DB - 8.7);
        // Kaiser's order estimate: N = (A - 8) / (2.285 · Δω)
        halfWidth = (int) Math.ceil((STOPBAND_DB - 8) / (2.285 * 2 * Math.PI * transition) / 2) + 1;
        stride = (2 * halfWidth + ROW_MULTIPLE - 1) / ROW_MULTIPLE * ROW_MULTIPLE;
        if ((long) up * stride <= MAX_TABLE_FLOATS) {
            table = new float[up * stride];
            for (int p = 0; p < up; p++) taps(p, table, p * stride);
        } else {
            table = null;
        }
    }

    /** Number of output samples for n input samples: ceil(n · L / M). */
    long outputLength(long n) {
        return Math.ceilDiv(Math.multiplyExact(n, (long) up), down);
    }

    /** The array holding phase {@code phase}'s taps: the table, or {@code scratch} filled with them. */
    float[] row(int phase, float[] scratch) {
        if (table != null) return table;
        taps(phase, scratch, 0);
        return scratch;
    }

    /** Where phase {@code phase}'s taps start in the array {@link #row} returns. */
    int rowOffset(int phase) {
        return table != null ? phase * stride : 0;
    }

    /** Taps for an output {@code phase / L} input samples after x[base], normalized to unit gain at DC. */
    private void taps(int phase, float[] h, int at) {
        double frac = (double) phase / up;
        double[] v = new double[2 * halfWidth];
        double sum = 0;
        for (int k = 0; k < v.length; k++) {
            double t = frac + halfWidth - 1 - k; // distance from the output time to the input sample
            double s = Math.abs(t) < 1e-12 ? 1 : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t * 2 * cutoff);
            double r = t / halfWidth;
            double w = Math.abs(r) >= 1 ? 0 : bessel0(beta * Math.sqrt(1 - r * r)) / bessel0(beta);
            v[k] = 2 * cutoff * s * w;
            sum += v[k];
        }
        for (int k = 0; k < v.length; k++) h[at + k] = (float) (v[k] / sum);
        for (int k = v.length; k < stride; k++) h[at + k] = 0;
    }

    private static double bessel0(double x) {
        double sum = 1, term = 1, q = x * x / 4;
        for (int k = 1; k < 200 && term > 1e-17 * sum; k++) {
            term *= q / ((double) k * k);
            sum += term;
        }
        return sum;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
