package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ONNX Runtime reference on a sample: "Hello world." as misaki's American English phonemes, voice af_heart. The
 * graph facts the engine's Kokoro must reproduce are checked here (docs/KOKORO-WEIGHTS.md): 600 samples per
 * duration frame, durations as round(Σ sigmoid / speed) ≥ 1, no random source, and the iSTFT's tail.
 */
class OrtKokoroTest {
    static final String HELLO_WORLD = "həlˈO wˈɜɹld.";
    private static OrtKokoro ort;
    private static long[] ids;
    private static float[] style;

    @BeforeAll
    static void open() throws Exception {
        ort = new OrtKokoro(KokoroFixtures.model(), 2);
        ids = KokoroVocabulary.read(KokoroFixtures.tokenizer()).encode(HELLO_WORLD);
        style = KokoroVoice.read("af_heart", KokoroFixtures.voice("af_heart")).style(HELLO_WORLD.length());
    }

    @AfterAll
    static void close() throws Exception {
        ort.close();
    }

    @Test
    void helloWorldHasAPlausibleLengthAndLevel() throws Exception {
        OrtKokoro.Output out = ort.run(ids, style, 1f);
        assertThat(out.durations()).as("one duration per id, pads included").hasSize(ids.length);
        assertThat(java.util.Arrays.stream(out.durations()).min().orElseThrow()).isGreaterThanOrEqualTo(1);
        // asr frames Σd → ×2 (decode.3) → ×10 ×6 (ups) + 1 (reflection pad) STFT frames → hop 5, less n_fft/2 at each
        // end
        assertThat((long) out.waveform().length).isEqualTo(600 * out.frames());
        double seconds = out.waveform().length / 24000.0;
        assertThat(seconds).as("two words").isBetween(0.6, 2.5);
        // ORT's output ends in a burst: the overlap-add of the last few STFT frames (after the trailing pad) reaches
        // ~1e5, from
        // exp() of conv_post's magnitude channels there (docs/KOKORO-WEIGHTS.md); the level is judged before it
        int body = out.waveform().length - 50;
        double sum = 0, peak = 0, tailPeak = 0;
        for (int i = 0; i < out.waveform().length; i++) {
            float x = out.waveform()[i];
            assertThat(Float.isFinite(x)).isTrue();
            if (i >= body) {
                tailPeak = Math.max(tailPeak, Math.abs(x));
                continue;
            }
            sum += x * (double) x;
            peak = Math.max(peak, Math.abs(x));
        }
        double rms = Math.sqrt(sum / body);
        System.err.printf(
                "[kokoro ort] %d ids, durations %s, %.3f s; before the last 50 samples rms %.4f, peak %.4f; last 50 peak %.1f%n",
                ids.length, java.util.Arrays.toString(out.durations()), seconds, rms, peak, tailPeak);
        assertThat(rms).as("speech, not silence").isGreaterThan(0.01);
        assertThat(peak).isLessThan(1.0);
    }

    @Test
    void durationsAreTheRoundedPredictionOverSpeed() throws Exception {
        for (float speed : new float[] {1f, 2f}) {
            OrtKokoro.Output out = ort.run(ids, style, speed);
            for (int i = 0; i < ids.length; i++) {
                assertThat(out.durations()[i]).as("speed %s id %d", speed, i).isEqualTo(Math.max(1, Math.round((double)
                        out.rawDurations()[i])));
            }
        }
        OrtKokoro.Output slow = ort.run(ids, style, 1f), fast = ort.run(ids, style, 2f);
        for (int i = 0; i < ids.length; i++) assertThat(fast.rawDurations()[i]).isEqualTo(slow.rawDurations()[i] / 2f);
        assertThat(fast.frames()).isLessThan(slow.frames());
    }

    @Test
    void theExportHasNoRandomSource() throws Exception {
        // hexgrad's SineGen adds randn noise and a random initial phase; this export dropped both
        assertThat(ort.run(ids, style, 1f).waveform())
                .containsExactly(ort.run(ids, style, 1f).waveform());
    }

    @Test
    void waveformIsTheOverlapAddNormalizedOnItsFirstTwentySamplesOnly() throws Exception {
        // the export's iSTFT: y = ConvTranspose(...) ; y[i] /= window_sum[i] for i < 20 where window_sum[i] > FLT_MIN
        // (window_sum is one frame's hann², traced for a single frame) ; y *= 4 (n_fft / hop) ; drop 10 samples each
        // end
        float[] windowSum = new float[20];
        for (int i = 0; i < 20; i++) {
            double w = 0.5 - 0.5 * Math.cos(2 * Math.PI * i / 20); // periodic hann, as torch.hann_window(20)
            windowSum[i] = (float) (w * w);
        }
        OrtKokoro.Output out = ort.run(ids, style, 1f);
        float[] y = out.overlapAdd().clone();
        for (int i = 0; i < Math.min(20, y.length); i++) if (windowSum[i] > Float.MIN_NORMAL) y[i] /= windowSum[i];
        float[] w = out.waveform();
        assertThat(w.length).isEqualTo(y.length - 20);
        double worst = 0;
        for (int i = 0; i < w.length; i++)
            worst = Math.max(worst, Math.abs(w[i] - y[i + 10] * 4f) / Math.max(1e-3, Math.abs(w[i])));
        assertThat(worst)
                .as("relative difference to the documented tail (window_sum recomputed, not read)")
                .isLessThan(1e-5);
    }
}
