package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.Resampler;
import dev.audioengine.evaluation.EnglishTextNormalizer;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.model.task.Transcript;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One sentence spoken in three pieces with pauses between them (Kokoro says each piece; the pauses are 1.0 to 1.3 s,
 * as a speaker who stops to think makes) is one window with the default options, decoded whole, and the transcript is
 * the sentence. With the merge gap of before (0.5 s), each piece was a window of its own, decoded apart.
 */
class SentenceWindowsTest {
    private static final String[] PIECES = {
        "When the storm had finally passed,", "the fishermen slowly pulled their boats", "back onto the sandy beach."
    };

    @Test
    void aSentenceWithPausesInsideIsOneWindow() throws Exception {
        EnglishTextNormalizer n = new EnglishTextNormalizer();
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                SpeechSynthesizer tts = Models.load(engine, "kokoro", SpeechSynthesizer.class);
                SpeechRecognizer asr = Models.load(engine, "moonshine-tiny", SpeechRecognizer.class)) {
            Random noise = new Random(3);
            List<float[]> parts = new ArrayList<>();
            parts.add(silence(noise, 0.5));
            for (int i = 0; i < PIECES.length; i++) {
                if (i > 0) parts.add(silence(noise, 1.0 + 0.15 * i));
                float[] piece =
                        tts.synthesize(PIECES[i], SynthesisOptions.DEFAULTS).samples();
                parts.add(Resampler.resample(piece, 24000, 16000));
            }
            parts.add(silence(noise, 0.5));
            float[] audio = join(parts);

            Transcript whole = asr.transcribe(audio, AsrOptions.DEFAULTS);
            System.out.printf(
                    "[sentence with pauses] %d window(s): %s%n",
                    whole.segments().size(), whole.text());
            assertThat(whole.segments()).as("one window over the pauses").hasSize(1);
            assertThat(n.normalize(whole.text())).isEqualTo(n.normalize(String.join(" ", PIECES)));

            AsrOptions before = new AsrOptions(AsrOptions.DEFAULTS.vad(), 20, 0.5, 6, 0.5);
            Transcript apart = asr.transcribe(audio, before);
            System.out.printf(
                    "[merge gap 0.5 s] %d window(s): %s%n", apart.segments().size(), apart.text());
            assertThat(apart.segments())
                    .as("the VAD finds three pieces: with a 0.5 s merge gap each is a window")
                    .hasSize(3);
        }
    }

    private static float[] silence(Random noise, double seconds) {
        float[] s = new float[(int) (seconds * 16000)];
        for (int i = 0; i < s.length; i++) s[i] = (float) (0.002 * noise.nextGaussian());
        return s;
    }

    private static float[] join(List<float[]> parts) {
        float[] out = new float[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
