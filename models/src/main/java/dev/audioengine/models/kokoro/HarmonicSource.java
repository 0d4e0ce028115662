package dev.audioengine.models.kokoro;

import static dev.audioengine.models.kokoro.KokoroNetwork.KokoroConfig.KOKORO_82M;

/**
 * The generator's source on the host (the graph API has no mod, comparison or atan2): SourceModuleHnNSF's SineGen
 * as this export computes it (no random phase, no noise) and the STFT of its output → [22, 120F + 1] (11
 * magnitudes, then 11 phases). Float32 arithmetic in the export's order where the phase is long (a float's phase of
 * 10⁵ radians is only good to 10⁻²; doing it in double would not be closer to ONNX Runtime).
 *
 * <p>F0 [2F] at 2 values per frame: upsampled ×300 (nearest) → f; per harmonic k = 1..9, rad = (k·f / 24000) mod 1,
 * linearly resized ×1/300 (which lands on each F0 value), cumulated ·2π, ×300, linearly resized ×300 (half-pixel,
 * clamped), sin, ×0.1, × (f > 10); then tanh(l_linear(9 sines)).
 */
final class HarmonicSource {
    static final int SAMPLE_RATE = KOKORO_82M.sampleRate(), UPSAMPLE = KOKORO_82M.sourceUpsample(), HARMONICS = 9;
    private static final float SINE_AMP = 0.1f, VOICED = 10f;
    private final float[] weights;
    private final float bias;

    HarmonicSource(float[] weights, float bias) {
        if (weights.length != HARMONICS) throw new IllegalArgumentException("l_linear has " + weights.length + " inputs");
        this.weights = weights.clone();
        this.bias = bias;
    }

    /** The merged source at 24 kHz, 300 samples per F0 value; samples spread over {@code loops}' threads. */
    float[] source(float[] f0, HostLoops loops) {
        int n = f0.length, len = n * UPSAMPLE;
        // each harmonic's cumulated phase per F0 value: the only sequential part, n values per harmonic
        float[][] phase = new float[HARMONICS][n];
        for (int k = 1; k <= HARMONICS; k++) {
            float cum = 0;
            for (int j = 0; j < n; j++) {
                float r = f0[j] * k / SAMPLE_RATE;
                r = r - (float) Math.floor(r);
                cum += r;
                phase[k - 1][j] = cum * 2f * (float) Math.PI * UPSAMPLE;
            }
        }
        float[] out = new float[len];
        loops.forRange(len, 4096, (from, to) -> {
            for (int t = from; t < to; t++) {
                double merged = bias;
                if (f0[t / UPSAMPLE] > VOICED) {
                    float x = Math.max(0f, (t + 0.5f) / UPSAMPLE - 0.5f);
                    int i0 = Math.min((int) x, n - 1), i1 = Math.min(i0 + 1, n - 1);
                    float lambda = x - i0;
                    // the harmonics summed in order 1..9, as the export adds them
                    for (int k = 0; k < HARMONICS; k++) {
                        float p = phase[k][i0] + lambda * (phase[k][i1] - phase[k][i0]);
                        merged += weights[k] * ((float) Math.sin(p) * SINE_AMP);
                    }
                }
                out[t] = (float) Math.tanh(merged);
            }
        });
        return out;
    }

    /** The periodic Hann window and the DFT's cos/sin per (bin, tap), computed once (the same values the loop computed per frame). */
    private static final double[] WINDOW = new double[KOKORO_82M.nFft()], COS = new double[KOKORO_82M.bins() * KOKORO_82M.nFft()],
            SIN = new double[COS.length];

    static {
        int nFft = KOKORO_82M.nFft();
        for (int m = 0; m < nFft; m++) WINDOW[m] = 0.5 - 0.5 * Math.cos(2 * Math.PI * m / nFft);
        for (int k = 0; k < KOKORO_82M.bins(); k++) {
            for (int m = 0; m < nFft; m++) {
                double a = 2 * Math.PI * k * m / nFft;
                COS[k * nFft + m] = Math.cos(a);
                SIN[k * nFft + m] = Math.sin(a);
            }
        }
    }

    /** STFT (n_fft 20, hop 5, periodic Hann, reflect-padded by 10): [22 × frames] row-major, magnitudes then phases; frames spread over {@code loops}' threads. */
    static float[] spectrum(float[] x, HostLoops loops) {
        int nFft = KOKORO_82M.nFft(), hop = KOKORO_82M.hop(), bins = KOKORO_82M.bins(), pad = nFft / 2;
        int frames = 1 + x.length / hop;
        double[] padded = new double[x.length + 2 * pad];
        for (int i = 0; i < padded.length; i++) {
            int j = i - pad;
            if (j < 0) j = -j;
            if (j >= x.length) j = 2 * (x.length - 1) - j;
            padded[i] = x[j];
        }
        float[] out = new float[2 * bins * frames];
        loops.forRange(frames, 1024, (from, to) -> {
            double[] v = new double[nFft];
            for (int f = from; f < to; f++) {
                for (int m = 0; m < nFft; m++) v[m] = padded[f * hop + m] * WINDOW[m];
                for (int k = 0; k < bins; k++) {
                    double re = 0, im = 0;
                    for (int m = 0; m < nFft; m++) {
                        re += v[m] * COS[k * nFft + m];
                        im -= v[m] * SIN[k * nFft + m];
                    }
                    out[k * frames + f] = (float) Math.sqrt(re * re + im * im);
                    // atan2, but a real negative value gets +π (the export's Atan + Where)
                    out[(bins + k) * frames + f] = (float) (im == 0 && re < 0 ? Math.PI : Math.atan2(im, re));
                }
            }
        });
        return out;
    }
}
