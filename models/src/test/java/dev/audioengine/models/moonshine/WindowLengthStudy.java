package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.evaluation.EnglishTextNormalizer;
import dev.audioengine.evaluation.WordErrorRate;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Which window limit and merge gap keep the word error rate lowest on long audio: Debian's 10 recordings joined
 * four times over by silences of 0.3 to 1.5 s (so the VAD's segments can be merged into windows of any length),
 * transcribed with each setting; word errors after Whisper's normalisation, windows, time. A main class:
 * <pre>scripts/peers/bench-asr-vs-ort builds the class path; java -cp ... dev.audioengine.models.moonshine.WindowLengthStudy [tiny|base]</pre>
 */
public final class WindowLengthStudy {
    private WindowLengthStudy() {}

    public static void main(String[] args) throws Exception {
        String model = "moonshine-" + (args.length > 0 ? args[0] : "tiny");
        List<MoonshineFixtures.Utterance> set = MoonshineFixtures.debianSet();
        EnglishTextNormalizer n = new EnglishTextNormalizer();
        Random r = new Random(11);
        List<float[]> parts = new ArrayList<>();
        List<String> refs = new ArrayList<>();
        for (int rep = 0; rep < 4; rep++) {
            for (MoonshineFixtures.Utterance u : set) {
                float[] gap = new float[(int) ((0.3 + 1.2 * r.nextDouble()) * 16000)];
                for (int i = 0; i < gap.length; i++) gap[i] = (float) (0.002 * r.nextGaussian());
                parts.add(gap);
                parts.add(u.samples());
                refs.add(u.transcript());
            }
        }
        float[] audio = new float[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, audio, at, p.length);
            at += p.length;
        }
        String reference = n.normalize(String.join(" ", refs));
        try (AudioEngine e = AudioEngine.builder().backend("cpu").build();
                SpeechRecognizer asr = Models.load(e, model, SpeechRecognizer.class)) {
            System.out.printf(
                    Locale.ROOT,
                    "%s, %.0f s of audio, %d reference words%n",
                    model,
                    audio.length / 16000.0,
                    reference.split(" ").length);
            for (double max : new double[] {5, 10, 15, 20, 25, 30}) {
                for (double gap : new double[] {0.5, 2}) {
                    AsrOptions o = new AsrOptions(AsrOptions.DEFAULTS.vad(), max, gap, 6, 0.5);
                    long t0 = System.nanoTime();
                    Transcript t = asr.transcribe(audio, o);
                    double s = (System.nanoTime() - t0) / 1e9;
                    WordErrorRate.Result w = WordErrorRate.score(reference, n.normalize(t.text()));
                    System.out.printf(
                            Locale.ROOT,
                            "max-window %4.0f s, merge-gap %.1f s: %2d windows, %3d word errors (%s), %.1f s%n",
                            max,
                            gap,
                            t.segments().size(),
                            w.errors(),
                            w,
                            s);
                }
            }
        }
    }
}
