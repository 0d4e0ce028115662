package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The resampler against a float64 windowed sinc written out directly (each output's weights
 * computed from its exact position, no tables, no polyphase bookkeeping, no vectors), on fresh
 * full-band noise of odd lengths; and the streaming form against the whole-clip form for random
 * block sizes, which must agree exactly.
 */
class ResamplerReferenceTest {
    /** The filter's design, restated: 85% of the lower Nyquist passed, 100 dB Kaiser window. */
    static double[] reference(float[] x, int from, int to) {
        int g = java.math.BigInteger.valueOf(from)
                .gcd(java.math.BigInteger.valueOf(to))
                .intValue();
        long up = to / g, down = from / g;
        double nyquist = 0.5 * Math.min(from, to) / from,
                transition = nyquist * 0.15,
                cutoff = nyquist - transition / 2;
        double beta = 0.1102 * (100 - 8.7);
        int hw = (int) Math.ceil(92 / (2.285 * 2 * Math.PI * transition) / 2) + 1;
        int n = (int) Math.ceilDiv((long) x.length * up, down);
        double[] y = new double[n];
        for (int m = 0; m < n; m++) {
            long base = Math.floorDiv(m * down, up);
            double t0 = (double) (m * down - base * up) / up + base; // the output's exact position in input samples
            double acc = 0, sum = 0;
            for (long j = base - hw + 1; j <= base + hw; j++) {
                double t = t0 - j, r = t / hw;
                double sinc = Math.abs(t) < 1e-12 ? 1 : Math.sin(2 * Math.PI * cutoff * t) / (2 * Math.PI * cutoff * t);
                double w = Math.abs(r) >= 1 ? 0 : i0(beta * Math.sqrt(1 - r * r)) / i0(beta);
                double weight = sinc * w;
                sum += weight;
                if (j >= 0 && j < x.length) acc += weight * x[(int) j];
            }
            y[m] = acc / sum;
        }
        return y;
    }

    static double i0(double x) {
        double s = 1, term = 1;
        for (int k = 1; k < 300; k++) {
            term *= (x / 2) * (x / 2) / ((double) k * k);
            s += term;
            if (term < 1e-18 * s) break;
        }
        return s;
    }

    static float[] noise(Random r, int n) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = r.nextFloat() * 2 - 1;
        return x;
    }

    /** The whole clip through a resampler whose scalar-to-vector switch is at output {@code scalarOutputs}. */
    static float[] resample(float[] x, int from, int to, long scalarOutputs) {
        StreamingResampler s = new StreamingResampler(from, to, scalarOutputs);
        s.push(x, 0, x.length);
        s.finish();
        float[] y = new float[(int) s.outputLength(x.length)];
        int at = 0;
        for (int n; at < y.length && (n = s.pull(y, at, y.length - at)) > 0; ) at += n;
        return y;
    }

    @ParameterizedTest
    @CsvSource({
        "8000,16000,4001",
        "22050,16000,11027",
        "44100,16000,22053",
        "48000,16000,24001",
        "96000,16000,48007",
        "16000,8000,8003",
        "44101,16000,4411",
        "11025,16000,3001"
    })
    void matchesAFloat64WindowedSinc(int from, int to, int length) {
        Random r = new Random(from * 31L + length);
        float[] x = noise(r, length);
        double[] ref = reference(x, from, to);
        // the default (scalar for a clip this short), vector from the start, and a switch in the middle
        for (long scalarOutputs : new long[] {StreamingResampler.SCALAR_OUTPUTS, 0, ref.length / 2}) {
            float[] y = scalarOutputs == StreamingResampler.SCALAR_OUTPUTS
                    ? Resampler.resample(x, from, to)
                    : resample(x, from, to, scalarOutputs);
            assertThat(y).hasSize(ref.length);
            double max = 0;
            for (int i = 0; i < y.length; i++) max = Math.max(max, Math.abs(y[i] - ref[i]));
            // float32 products summed over a few hundred taps of unit-range noise: a few ulps of 1
            assertThat(max)
                    .as("%d -> %d, %d samples, scalar for %d outputs", from, to, length, scalarOutputs)
                    .isLessThan(2e-6);
        }
    }

    @ParameterizedTest
    @CsvSource({"44100,16000", "48000,16000", "8000,16000", "96000,16000", "22050,16000"})
    void streamingInRandomBlocksGivesTheSameSamples(int from, int to) {
        Random r = new Random(to * 7L + from);
        float[] x = noise(r, 30011);
        long switchAt = 2000; // both inner products, and the switch, inside the clip
        float[] whole = resample(x, from, to, switchAt);
        for (int trial = 0; trial < 3; trial++) {
            StreamingResampler s = new StreamingResampler(from, to, switchAt);
            float[] out = new float[whole.length + 100];
            int at = 0, in = 0;
            while (true) {
                int want = 1 + r.nextInt(trial == 0 ? 3 : 5000);
                int n = s.pull(out, at, Math.min(want, out.length - at));
                if (n < 0) break;
                at += n;
                if (n == 0) {
                    if (in == x.length) s.finish();
                    else {
                        int push = Math.min(x.length - in, 1 + r.nextInt(trial == 0 ? 7 : 9000));
                        s.push(x, in, push);
                        in += push;
                    }
                }
            }
            assertThat(Arrays.copyOf(out, at)).as("trial %d", trial).containsExactly(whole);
        }
    }

    /** The Vector API path and the scalar one (taken when the incubator module is not resolved) compute the same sums. */
    @org.junit.jupiter.api.Test
    void theScalarAndVectorInnerProductsAgree() {
        Random r = new Random(3);
        for (int n = 16; n <= 1024; n += 16) {
            float[] h = noise(r, n + 5), x = noise(r, n + 9);
            double exact = 0, scale = 0;
            for (int i = 0; i < n; i++) {
                exact += (double) h[i + 5] * x[i + 9];
                scale += Math.abs((double) h[i + 5] * x[i + 9]);
            }
            assertThat(Math.abs(VectorDot.dot(h, 5, x, 9, n) - exact))
                    .as("vector, n=%d", n)
                    .isLessThan(1e-6 * scale);
            assertThat(Math.abs(StreamingResampler.scalarDot(h, 5, x, 9, n) - exact))
                    .as("scalar, n=%d", n)
                    .isLessThan(1e-6 * scale);
        }
    }
}
