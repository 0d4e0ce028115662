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
 * Which window limit and merge gap keep the word error rate lowest on long audio, on two sets made from Debian's 10
 * recordings joined four times over (so the VAD's segments can be merged into windows of any length):
 * <ul>
 *   <li>{@code joined}: the recordings as they are, apart by silences of 0.3 to 1.5 s (no pause inside a sentence);
 *   <li>{@code pauses}: a pause of 0.6 to 1.5 s inserted inside each recording, at its longest quiet stretch between a
 *       quarter and three quarters of the way through (where a speaker breathes between words), and the recordings
 *       apart by 1 to 3 s, as people pause longer between sentences than inside one.
 * </ul>
 * Each set is transcribed with each setting; word errors after Whisper's normalisation, windows, time. A main class:
 * <pre>scripts/peers/bench-asr-vs-ort builds the class path; java -cp ... dev.audioengine.models.moonshine.WindowLengthStudy [tiny|base]</pre>
 */
public final class WindowLengthStudy {
    private WindowLengthStudy() {}

    public static void main(String[] args) throws Exception {
        String model = "moonshine-" + (args.length > 0 ? args[0] : "tiny");
        List<MoonshineFixtures.Utterance> set = MoonshineFixtures.debianSet();
        EnglishTextNormalizer n = new EnglishTextNormalizer();
        List<String> refs = new ArrayList<>();
        for (int rep = 0; rep < 4; rep++) for (MoonshineFixtures.Utterance u : set) refs.add(u.transcript());
        String reference = n.normalize(String.join(" ", refs));
        try (AudioEngine e = AudioEngine.builder().backend("cpu").build();
                SpeechRecognizer asr = Models.load(e, model, SpeechRecognizer.class)) {
            for (boolean pauses : new boolean[] {false, true}) {
                float[] audio = join(set, pauses);
                System.out.printf(
                        Locale.ROOT,
                        "%s, set %s, %.0f s of audio, %d reference words%n",
                        model,
                        pauses ? "pauses" : "joined",
                        audio.length / 16000.0,
                        reference.split(" ").length);
                for (double max : new double[] {10, 15, 20, 30}) {
                    for (double gap : new double[] {0.5, 1, 2, 3}) {
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

    /** The set four times over, apart by noise-floor silences; with pauses inserted inside each recording. */
    static float[] join(List<MoonshineFixtures.Utterance> set, boolean pauses) {
        Random r = new Random(11);
        List<float[]> parts = new ArrayList<>();
        for (int rep = 0; rep < 4; rep++) {
            for (MoonshineFixtures.Utterance u : set) {
                parts.add(silence(r, pauses ? 1 + 2 * r.nextDouble() : 0.3 + 1.2 * r.nextDouble()));
                if (!pauses) {
                    parts.add(u.samples());
                    continue;
                }
                int at = quietest(u.samples());
                parts.add(java.util.Arrays.copyOfRange(u.samples(), 0, at));
                parts.add(silence(r, 0.6 + 0.9 * r.nextDouble()));
                parts.add(java.util.Arrays.copyOfRange(u.samples(), at, u.samples().length));
            }
        }
        float[] audio = new float[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, audio, at, p.length);
            at += p.length;
        }
        return audio;
    }

    private static float[] silence(Random r, double seconds) {
        float[] gap = new float[(int) (seconds * 16000)];
        for (int i = 0; i < gap.length; i++) gap[i] = (float) (0.002 * r.nextGaussian());
        return gap;
    }

    /**
     * The middle of the longest run of quiet 20 ms frames (RMS under a tenth of the recording's median frame RMS)
     * between a quarter and three quarters of the way through: most likely a gap between words, not a stop inside one.
     */
    static int quietest(float[] x) {
        int frame = 320, frames = x.length / frame;
        double[] rms = new double[frames];
        for (int f = 0; f < frames; f++) {
            double sum = 0;
            for (int i = f * frame; i < (f + 1) * frame; i++) sum += x[i] * x[i];
            rms[f] = Math.sqrt(sum / frame);
        }
        double[] sorted = rms.clone();
        java.util.Arrays.sort(sorted);
        double quiet = sorted[frames / 2] / 10;
        int bestStart = frames / 2, bestLength = 0;
        for (int f = frames / 4; f < 3 * frames / 4; f++) {
            int g = f;
            while (g < 3 * frames / 4 && rms[g] < quiet) g++;
            if (g - f > bestLength) {
                bestLength = g - f;
                bestStart = f;
            }
            f = Math.max(f, g);
        }
        if (bestLength == 0) { // no quiet frame: the quietest one
            for (int f = frames / 4; f < 3 * frames / 4; f++) if (rms[f] < rms[bestStart]) bestStart = f;
            return bestStart * frame + frame / 2;
        }
        return (bestStart + bestLength / 2) * frame;
    }
}
