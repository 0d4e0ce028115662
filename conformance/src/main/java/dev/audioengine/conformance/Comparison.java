package dev.audioengine.conformance;

/**
 * Compares a backend's values with expected ones: NaN and ±Inf must sit in the same places
 * (and with the same sign), and over the finite values the normalized mean squared error
 * Σ(a−b)²/Σb² must stay within the bound. When every expected value is zero the error is
 * Σa² itself, so an all-zero result cannot hide garbage.
 *
 * @param nmse     the error over places where both are finite (NaN when lengths differ)
 * @param mismatch the first disagreement that makes the case fail regardless of NMSE, or null
 */
public record Comparison(double nmse, String mismatch) {

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
                err += (a - b) * (a - b);
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
