package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The resampler's frequency response, measured with pure tones: the gain of passband tones,
 * the energy left of tones above the output's Nyquist frequency, and that a tone comes out at
 * the frequency it went in (a least-squares sine fit at that frequency leaves no residual).
 */
class ResamplerTest {

    private static float[] tone(double freq, int rate, int n) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = (float) (0.5 * Math.sin(2 * Math.PI * freq * i / rate + 0.3));
        return x;
    }

    /** Fits a·sin + b·cos at freq over the middle of y; returns {amplitude, rms of the residual}. */
    private static double[] fit(float[] y, double freq, int rate) {
        int from = y.length / 4, to = 3 * y.length / 4;
        double ss = 0, cc = 0, sc = 0, ys = 0, yc = 0;
        for (int i = from; i < to; i++) {
            double s = Math.sin(2 * Math.PI * freq * i / rate), c = Math.cos(2 * Math.PI * freq * i / rate);
            ss += s * s;
            cc += c * c;
            sc += s * c;
            ys += y[i] * s;
            yc += y[i] * c;
        }
        double det = ss * cc - sc * sc, a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det;
        double res = 0;
        for (int i = from; i < to; i++) {
            double e = y[i] - a * Math.sin(2 * Math.PI * freq * i / rate) - b * Math.cos(2 * Math.PI * freq * i / rate);
            res += e * e;
        }
        return new double[] {Math.hypot(a, b), Math.sqrt(res / (to - from))};
    }

    private static double rms(float[] y) {
        int from = y.length / 4, to = 3 * y.length / 4;
        double s = 0;
        for (int i = from; i < to; i++) s += y[i] * (double) y[i];
        return Math.sqrt(s / (to - from));
    }

    @ParameterizedTest
    @CsvSource({"44100,16000", "48000,16000", "22050,16000", "11025,16000", "8000,16000", "32000,16000", "44101,16000"})
    void passbandIsFlatAndTonesKeepTheirFrequency(int from, int to) {
        double nyq = 0.5 * Math.min(from, to);
        for (double f : new double[] {50, 440, 1000, 0.5 * nyq, 0.8 * nyq}) {
            float[] y = Resampler.resample(tone(f, from, from / 2), from, to);
            assertThat(y.length).isEqualTo((int) Math.ceil(from / 2.0 * to / from));
            double[] amp = fit(y, f, to);
            double gainDb = 20 * Math.log10(amp[0] / 0.5);
            assertThat(Math.abs(gainDb))
                    .as("gain at %.0f Hz, %d -> %d: %.5f dB", f, from, to, gainDb)
                    .isLessThan(0.01);
            // a tone moved to another frequency would leave the fit's full energy as residual
            assertThat(amp[1] / 0.5).as("residual at %.0f Hz", f).isLessThan(1e-3);
        }
    }

    @ParameterizedTest
    @CsvSource({"44100,16000", "48000,16000", "22050,16000", "32000,16000"})
    void tonesAboveTheOutputNyquistAreRemoved(int from, int to) {
        for (double f : new double[] {to / 2.0 + 10, 0.6 * to, 0.45 * from}) {
            float[] y = Resampler.resample(tone(f, from, from / 2), from, to);
            double db = 20 * Math.log10(rms(y) / (0.5 / Math.sqrt(2)));
            assertThat(db).as("%.0f Hz, %d -> %d", f, from, to).isLessThan(-80);
        }
    }
}
