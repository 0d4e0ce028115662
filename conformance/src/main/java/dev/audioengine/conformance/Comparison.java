package dev.audioengine.conformance;

/**
 * Compares a backend's values with expected ones: NaN and ±Inf must sit in the same places
 * (and with the same sign), and over the finite values the normalized mean squared error
 * Σ(a−b)²/Σb² must stay within the bound. When every expected value is zero the error is
 * Σa² itself, so an all-zero result cannot hide garbage.
 * <p>
 * A difference no larger than the smallest normal float ({@value #FLOAT_FLOOR}) counts as none. Every
 * backend output is float or narrower, and below that float keeps no relative precision (subnormals),
 * or none at all where a GPU flushes them; without the floor a one-element case whose true value is
 * 1e-40 fails on any correct kernel.
 *
 * @param nmse     the error over places where both are finite (NaN when lengths differ)
 * @param mismatch the first disagreement that makes the case fail regardless of NMSE, or null
 */
public record Comparison(double nmse, String mismatch) {

    /** {@link Float#MIN_NORMAL}: differences at or below it are float's underflow, not an error. */
    public static final double FLOAT_FLOOR = 0x1.0p-126;

    public static Comparison of(double[] actual, double[] expected) {
        if (actual.length != expected.length) {
            return new Comparison(Double.NaN, "backend produced " + actual.length + " values, reference " + expected.length);
        }
        double err = 0, ref = 0;
        int specialMismatches = 0;
        String first = null;
        for (int i = 0; i < actual.length; i++) {
            double a = actual[i], b = expected[i];
            boolean aFinite = Double.isFinite(a), bFinite = Double.isFinite(b);
            if (aFinite && bFinite) {
                double d = Math.max(0, Math.abs(a - b) - FLOAT_FLOOR);
                err += d * d;
                ref += b * b;
            } else if (!sameSpecial(a, b)) {
                if (first == null) first = "element " + i + ": backend " + a + ", reference " + b;
                specialMismatches++;
            }
        }
        double nmse = ref > 0 ? err / ref : err;
        String mismatch = specialMismatches == 0 ? null
                : specialMismatches + " NaN/Inf disagreement(s), first at " + first;
        return new Comparison(nmse, mismatch);
    }

    private static boolean sameSpecial(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) return Double.isNaN(a) && Double.isNaN(b);
        return a == b; // both infinite with the same sign
    }
}
