package dev.audioengine.api.testkit;

import dev.audioengine.api.tensor.Shape;
import java.util.Locale;

/**
 * Compares a backend's float results with the float64 reference. Both checks first require the
 * non-finite values to agree position by position (NaN with NaN, +Inf with +Inf, -Inf with -Inf),
 * then measure the finite ones. Failure messages name what was run, its shape, the seed (to
 * replay) and the worst element.
 */
public final class Closeness {
    private Closeness() {}

    /**
     * Σ(a − b)² / Σb² over the positions where the expected value is finite; when Σb² is 0 the
     * plain Σ(a − b)² is returned so an all-zero expectation still has to be met. A difference no
     * larger than the smallest normal float counts as none: below it float has no relative precision
     * left (subnormals, or zero where they are flushed), and a tail value of 1e-40 is not an error.
     */
    public static double nmse(float[] actual, double[] expected) {
        requireSameLength(actual, expected);
        double err = 0, ref = 0;
        for (int i = 0; i < expected.length; i++) {
            if (!Double.isFinite(expected[i])) continue;
            double d = Math.max(0, Math.abs(actual[i] - expected[i]) - Float.MIN_NORMAL);
            err += d * d;
            ref += expected[i] * expected[i];
        }
        return ref == 0 ? err : err / ref;
    }

    /** max |a − b| over positions where the expected value is finite. */
    public static double maxAbsError(float[] actual, double[] expected) {
        int w = worstIndex(actual, expected);
        return w < 0 ? 0 : Math.abs(actual[w] - expected[w]);
    }

    /** Index of the largest |a − b| among finite expectations (a NaN actual counts as worst), or -1. */
    public static int worstIndex(float[] actual, double[] expected) {
        requireSameLength(actual, expected);
        int worst = -1;
        double max = -1;
        for (int i = 0; i < expected.length; i++) {
            if (!Double.isFinite(expected[i])) continue;
            double d = Double.isNaN(actual[i]) ? Double.POSITIVE_INFINITY : Math.abs(actual[i] - expected[i]);
            if (d > max) {
                max = d;
                worst = i;
            }
        }
        return worst;
    }

    /** Fails unless non-finite values agree and nmse(actual, expected) <= bound. */
    public static void assertNmse(
            String what, Shape shape, long seed, float[] actual, double[] expected, double bound) {
        requireNonFiniteAgreement(what, shape, seed, actual, expected);
        double e = nmse(actual, expected);
        if (!(e <= bound)) {
            throw new AssertionError(String.format(
                    Locale.ROOT,
                    "%s %s: NMSE %.3e > %.1e; %s; %s",
                    what,
                    shape,
                    e,
                    bound,
                    worst(actual, expected),
                    Seeds.describe(seed)));
        }
    }

    /** Fails unless non-finite values agree and every finite |a − b| <= bound. */
    public static void assertMaxAbs(
            String what, Shape shape, long seed, float[] actual, double[] expected, double bound) {
        requireNonFiniteAgreement(what, shape, seed, actual, expected);
        double e = maxAbsError(actual, expected);
        if (!(e <= bound)) {
            throw new AssertionError(String.format(
                    Locale.ROOT,
                    "%s %s: max |error| %.3e > %.1e; %s; %s",
                    what,
                    shape,
                    e,
                    bound,
                    worst(actual, expected),
                    Seeds.describe(seed)));
        }
    }

    /** Fails at the first position where one side is non-finite and the other is not the same non-finite value. */
    public static void requireNonFiniteAgreement(
            String what, Shape shape, long seed, float[] actual, double[] expected) {
        requireSameLength(actual, expected);
        for (int i = 0; i < expected.length; i++) {
            double e = expected[i];
            float a = actual[i];
            boolean agree = Double.isFinite(e) ? Float.isFinite(a) : Double.isNaN(e) ? Float.isNaN(a) : a == e;
            if (!agree) {
                throw new AssertionError(what + " " + shape + ": element " + i + " is " + a + ", reference " + e
                        + " (non-finite values must agree); " + Seeds.describe(seed));
            }
        }
    }

    private static String worst(float[] actual, double[] expected) {
        int w = worstIndex(actual, expected);
        return w < 0
                ? "no finite elements"
                : "worst at element " + w + ": got " + actual[w] + ", reference " + expected[w];
    }

    private static void requireSameLength(float[] actual, double[] expected) {
        if (actual.length != expected.length) {
            throw new AssertionError(actual.length + " values compared with " + expected.length + " reference values");
        }
    }
}
