package dev.audioengine.backend.cpu.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link FloatMath#log} against the double-precision logarithm: within one float ulp of ln x over every binade of
 * the positive floats, subnormals included, and IEEE's special values. (Its vector form gives the same bits:
 * UnaryMathTest.)
 */
class FloatMathLogTest {
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
