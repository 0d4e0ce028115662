package dev.audioengine.conformance;

/**
 * Compares a backend's values with expected ones: NaN and ±Inf must sit in the same places
 * (and with the same sign), and over the finite values the normalized mean squared error
 * Σ(a−b)²/Σb² must stay within the bound. When every expected value is zero the error is
 * Σa² itself, so an all-zero result cannot hide garbage.
 * <p>
 * A difference no larger than {@link #FLOAT_FLOOR}, 64 times the smallest normal float, counts as none.
 * Every backend output is float or narrower; below the smallest normal float it keeps no relative
 * precision (subnormals), and hardware that flushes subnormals (GPUs, lavapipe) also zeroes an
 * activation x·σ(v) whose σ(v) is subnormal, a true value up to |x| times that. Without the floor a
 * one-element GELU case drawing x = -10.1 (true value 3e-38) fails on every correct kernel.
 *
 * @param nmse     the error over places where both are finite (NaN when lengths differ)
 * @param mismatch the first disagreement that makes the case fail regardless of NMSE, or null
 */
public record Comparison(double nmse, String mismatch) {

    /** 2^-120 = 64·{@link Float#MIN_NORMAL} (7.5e-37): differences at or below it are float underflow, not an error. */
    public static final double FLOAT_FLOOR = 0x1.0p-120;

    public static Comparison of(double[] actual, double[] expected) {
        if (actual.length != expected.length) {
            return new Comparison(
                    Double.NaN, "backend produced " + actual.length + " values, reference " + expected.length);
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
        String mismatch =
                specialMismatches == 0 ? null : specialMismatches + " NaN/Inf disagreement(s), first at " + first;
        return new Comparison(nmse, mismatch);
    }

    private static boolean sameSpecial(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) return Double.isNaN(a) && Double.isNaN(b);
        return a == b; // both infinite with the same sign
    }
}
