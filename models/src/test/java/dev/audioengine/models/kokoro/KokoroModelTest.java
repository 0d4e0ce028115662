package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's Kokoro against ONNX Runtime on the same file: durations per phoneme, then the audio as log-mel
 * spectrograms away from the ends (where ORT's own output can break, docs/KOKORO-WEIGHTS.md).
 */
class KokoroModelTest {
    static final String FOX = "ðə kwˈɪk bɹˈWn fˈɑks ʤˈʌmps ˌOvəɹ ðə lˈAzi dˈɔɡ.";
    private static AudioEngine engine;
    private static KokoroModel model;
    private static OrtKokoro ort;
    private static KokoroVocabulary vocab;

    @BeforeAll
    static void open() throws Exception {
        vocab = KokoroVocabulary.read(KokoroFixtures.tokenizer());
        engine = AudioEngine.builder().backend("cpu").threads(2).build();
        model = KokoroModel.load(engine, KokoroFixtures.model(), vocab);
        ort = new OrtKokoro(KokoroFixtures.model(), 2);
    }

    @AfterAll
    static void close() throws Exception {
        ort.close();
        model.close();
        engine.close();
    }

    @Test
    void helloWorld() throws Exception {
        compare(OrtKokoroTest.HELLO_WORLD, "af_heart", 1f);
    }

    /** Returns {agreeing durations, phonemes, mel cosine or NaN when durations differ, ORT's rms away from the ends}. */
    static double[] compare(String phonemes, String voice, float speed) throws Exception {
        long[] ids = vocab.encode(phonemes);
        float[] style = KokoroVoice.read(voice, KokoroFixtures.voice(voice)).style(phonemes.length());
        OrtKokoro.Output ref = ort.run(ids, style, speed);
        KokoroModel.Durations ours = model.durations(ids, style, speed);
        int same = 0;
        double maxRaw = 0;
        for (int i = 0; i < ids.length; i++) {
            if (ours.frames()[i] == ref.durations()[i]) same++;
            maxRaw = Math.max(maxRaw, Math.abs(ours.raw()[i] - ref.rawDurations()[i]));
        }
        System.err.printf(
                "[kokoro %s %s %.1f] durations equal on %d of %d, max |raw diff| %.3f%n  ours %s%n  ort  %s%n",
                voice,
                phonemes,
                speed,
                same,
                ids.length,
                maxRaw,
                Arrays.toString(ours.frames()),
                Arrays.toString(ref.durations()));
        double cos = Double.NaN, ortRms = Double.NaN;
        if (same == ids.length) {
            float[] wave = model.waveform(ids, style, speed);
            assertThat(wave).hasSize(ref.waveform().length);
            int edge = 2400; // 100 ms
            float[] a = Arrays.copyOfRange(wave, edge, wave.length - edge),
                    b = Arrays.copyOfRange(ref.waveform(), edge, wave.length - edge);
            cos = MelCheck.cosine(MelCheck.logMel(a), MelCheck.logMel(b));
            ortRms = MelCheck.rms(b);
            System.err.printf(
                    "  log-mel cosine %.4f, rms ours %.4f ort %.4f, waveform correlation %.4f%n",
                    cos, MelCheck.rms(a), MelCheck.rms(b), MelCheck.cosine(toDouble(a), toDouble(b)));
        }
        return new double[] {same, ids.length, cos, ortRms};
    }

    private static double[] toDouble(float[] x) {
        double[] d = new double[x.length];
        for (int i = 0; i < x.length; i++) d[i] = x[i];
        return d;
    }
}
