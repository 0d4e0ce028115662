package dev.audioengine.backend.cpu.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link FloatMath#log} and {@link FloatMath#expm1} against the double-precision functions: the logarithm within one
 * float ulp over every binade of the positive floats, subnormals included; expm1 within two ulps from −104 to 88, and
 * close to 0 where exp(x) − 1 would cancel; IEEE's special values. (Their vector forms give the same bits:
 * UnaryMathTest.)
 */
class FloatMathTest {
    @Test
    void withinOneUlpOfTheDoubleLogarithmOverEveryBinade() {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        double worst = 0;
        float worstAt = 0;
        for (int i = 0; i < 4_000_000; i++) {
            // any positive finite float, uniform in its bits: every binade equally often, subnormals too
            float x = Float.intBitsToFloat(r.nextInt(1, 0x7f800000));
            if (i < 1 << 20) x = 1f + (float) r.nextDouble(-0.3, 0.42); // near 1, where ln x is near 0
            double exact = Math.log(x);
            float got = FloatMath.log(x);
            double ulps = Math.abs(got - exact) / Math.ulp((float) exact);
            if (ulps > worst) {
                worst = ulps;
                worstAt = x;
            }
        }
        System.err.printf("FloatMath.log: worst %.3f ulp at %s (seed %d)%n", worst, worstAt, seed);
        assertThat(worst).as("ulps at %s (seed %d)", worstAt, seed).isLessThanOrEqualTo(1.0);
    }

    @Test
    void expm1WithinTwoUlpsOfTheDoubleOne() {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        double worst = 0;
        float worstAt = 0;
        for (int i = 0; i < 4_000_000; i++) {
            float x = i % 2 == 0
                    ? (float) r.nextDouble(-104, 88)
                    : (float) (Math.signum(r.nextDouble(-1, 1)) * Math.pow(10, r.nextDouble(-30, 0))); // near 0
            double exact = Math.expm1(x);
            float got = FloatMath.expm1(x);
            double ulps = Math.abs(got - exact) / Math.ulp((float) exact);
            if (ulps > worst) {
                worst = ulps;
                worstAt = x;
            }
        }
        System.err.printf("FloatMath.expm1: worst %.3f ulp at %s (seed %d)%n", worst, worstAt, seed);
        assertThat(worst).as("ulps at %s (seed %d)", worstAt, seed).isLessThanOrEqualTo(2.0);
        assertThat(FloatMath.expm1(Float.NEGATIVE_INFINITY)).isEqualTo(-1f);
        assertThat(FloatMath.expm1(Float.NaN)).isNaN();
        assertThat(FloatMath.expm1(0f)).isEqualTo(0f);
        assertThat(FloatMath.expm1(1e-30f)).isEqualTo(1e-30f);
    }

    @Test
    void specialValuesAreIeees() {
        assertThat(FloatMath.log(0f)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(FloatMath.log(-0f)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(FloatMath.log(Float.POSITIVE_INFINITY)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(FloatMath.log(-1f)).isNaN();
        assertThat(FloatMath.log(Float.NEGATIVE_INFINITY)).isNaN();
        assertThat(FloatMath.log(Float.NaN)).isNaN();
        assertThat(FloatMath.log(1f)).isEqualTo(0f);
        assertThat(FloatMath.log(Float.MIN_VALUE))
                .isCloseTo((float) Math.log(Float.MIN_VALUE), org.assertj.core.data.Offset.offset(1e-4f));
        assertThat(FloatMath.log(Float.MAX_VALUE))
                .isCloseTo((float) Math.log(Float.MAX_VALUE), org.assertj.core.data.Offset.offset(1e-5f));
    }
}
