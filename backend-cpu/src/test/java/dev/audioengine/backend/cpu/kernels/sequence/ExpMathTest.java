package dev.audioengine.backend.cpu.kernels.sequence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.testkit.Seeds;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The LSTM's sigmoid and tanh and the attention's softmax terms against float64 Math, over the whole range they see
 * and past where they saturate.
 */
class ExpMathTest {
    private final long seed = Seeds.fresh();
    private final Random random = new Random(seed);

    @Test
    void sigmoidAndTanhWithinTheirDocumentedErrorEverywhere() {
        int n = 100_003; // odd: the last values go through the scalar tail
        float[] x = new float[n];
        for (int i = 0; i < n; i++)
            x[i] = (float) ((random.nextDouble() * 2 - 1) * (i % 3 == 0 ? 120 : i % 3 == 1 ? 12 : 0.5));
        x[0] = 0f;
        x[1] = -0f;
        x[2] = 200f;
        x[3] = -200f;
        float[] s = x.clone(), t = new float[n];
        ExpMath.sigmoidInPlace(s, 0, n);
        ExpMath.tanh(x, 0, t, 0, n);
        double worstSigmoid = 0, worstTanh = 0;
        for (int i = 0; i < n; i++) {
            double want = 1 / (1 + Math.exp(-(double) x[i]));
            worstSigmoid = Math.max(worstSigmoid, Math.abs(s[i] - want) / Math.max(want, 1e-30));
            worstTanh = Math.max(worstTanh, Math.abs(t[i] - Math.tanh(x[i])));
        }
        // float rounding alone is 6e-8 relative; the polynomial adds ~1e-7 (a wrong constant in it gives 1e-3 or worse)
        assertThat(worstSigmoid)
                .as("sigmoid worst relative error; " + Seeds.describe(seed))
                .isLessThan(5e-7);
        assertThat(worstTanh)
                .as("tanh worst absolute error; " + Seeds.describe(seed))
                .isLessThan(5e-7);
        assertThat(s[2]).isEqualTo(1f);
        assertThat(s[3]).isBetween(0f, 2e-38f);
        assertThat(t[2]).isEqualTo(1f);
        assertThat(t[3]).isEqualTo(-1f);
    }

    @Test
    void aValueGetsTheSameBitsInAVectorAndInTheTail() {
        float[] x = new float[257];
        for (int i = 0; i < x.length; i++) x[i] = (float) (random.nextGaussian() * 4);
        float[] whole = new float[x.length], one = new float[1];
        ExpMath.tanh(x, 0, whole, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            ExpMath.tanh(x, i, one, 0, 1); // a single value is always a tail
            assertThat(one[0]).as("tanh(" + x[i] + ")").isEqualTo(whole[i]);
        }
    }

    /** exp(x − max) over scores at and below the max, −inf and NaN included, with the sum; every tail length. */
    @Test
    void softmaxTermsWithinTheirErrorAndZeroPastTheRange() {
        for (int n : new int[] {1, 15, 16, 17, 64, 1001}) {
            float max = (float) (random.nextGaussian() * 10);
            float[] p = new float[n + 3];
            for (int i = 0; i < n; i++)
                p[3 + i] = max - (float) (i % 2 == 0 ? random.nextDouble() * 20 : random.nextDouble() * 120);
            p[3] = max;
            if (n > 2) p[4] = Float.NEGATIVE_INFINITY;
            if (n > 3) p[5] = max - 90f; // past the range: exactly 0
            if (n > 16) p[3 + 16] = max - 86.9f; // just inside it
            float[] in = p.clone();
            float sum = ExpMath.softmaxTerms(p, 3, n, max);
            double worst = 0, want = 0;
            for (int i = 0; i < n; i++) {
                double e = Math.exp(in[3 + i] - max); // the difference rounded to float, as the kernel takes it
                want += e;
                if (in[3 + i] - max < -87f)
                    assertThat(p[3 + i])
                            .as("exp(%s) past the range", in[3 + i] - max)
                            .isZero();
                else worst = Math.max(worst, Math.abs(p[3 + i] - e) / e);
            }
            assertThat(p[0]).isZero(); // outside [from, from + n): untouched
            assertThat(worst)
                    .as("softmax terms' worst relative error, n " + n + "; " + Seeds.describe(seed))
                    .isLessThan(5e-7);
            assertThat(Math.abs(sum - want) / want).as("their sum").isLessThan(1e-6);
        }
        float[] nan = {0f, Float.NaN, -1f};
        assertThat(Float.isNaN(ExpMath.softmaxTerms(nan, 0, 3, 0f))).isTrue();
        assertThat(nan[1]).isNaN();
    }

    @Test
    void aSoftmaxTermGetsTheSameBitsInAVectorAndInTheTail() {
        float[] x = new float[257];
        for (int i = 0; i < x.length; i++) x[i] = (float) (-Math.abs(random.nextGaussian()) * 20);
        float[] whole = x.clone();
        ExpMath.softmaxTerms(whole, 0, x.length, 0f);
        for (int i = 0; i < x.length; i++) {
            float[] one = {x[i]};
            ExpMath.softmaxTerms(one, 0, 1, 0f); // a single value is always a tail
            assertThat(one[0]).as("exp(" + x[i] + ")").isEqualTo(whole[i]);
        }
    }
}
