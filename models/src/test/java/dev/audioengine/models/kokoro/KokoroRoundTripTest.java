package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.Resampler;
import dev.audioengine.evaluation.EnglishTextNormalizer;
import dev.audioengine.evaluation.WordErrorRate;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.models.kokoro.text.KokoroPhonemizer;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import dev.audioengine.models.moonshine.MoonshineCheckpoint;
import dev.audioengine.models.moonshine.MoonshineFamily;
import dev.audioengine.models.moonshine.MoonshineModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Speech of the right words: 20 sentences of varied text (numbers, times, questions, names) phonemized by the engine's
 * espeak-ng front end, synthesized by the engine and by ONNX Runtime on the same phoneme ids (af_heart, speed 1), and
 * transcribed by the engine's Moonshine base (checked against its own ONNX Runtime reference elsewhere), resampled to
 * 16 kHz. Word error rate after Whisper-style normalisation: at most 5 %, and no worse than ONNX Runtime's audio gets.
 */
class KokoroRoundTripTest {
    static final String[] SENTENCES = {
        "The meeting starts at nine thirty on Monday morning.",
        "Can you call Doctor Smith before five o'clock?",
        "There are 24 hours in a day and 7 days in a week.",
        "Is it going to rain in London tomorrow?",
        "Maria bought three apples and two oranges at the market.",
        "The train to Chicago leaves from platform 12.",
        "Please send the report by Friday afternoon.",
        "How many people live in New York City?",
        "In 1995, my grandfather opened a small bakery.",
        "John and Sarah visited Paris last summer.",
        "What time does the library close on Sunday?",
        "The price went up by 15 percent this year.",
        "We walked along the river until the sun went down.",
        "Do you know where I left my keys?",
        "Professor Brown teaches physics at the university.",
        "The children played in the park for two hours.",
        "Turn left at the second traffic light.",
        "Why is the sky blue during the day?",
        "She finished the marathon in about four hours.",
        "Our flight to Tokyo was delayed by 45 minutes."
    };

    @Test
    void moonshineHearsTheSentences() throws Exception {
        KokoroVocabulary vocab = KokoroVocabulary.read(KokoroFixtures.tokenizer());
        KokoroPhonemizer phonemizer = KokoroPhonemizer.of("a", vocab);
        KokoroVoice heart = KokoroVoice.read("af_heart", KokoroFixtures.voice("af_heart"));
        EnglishTextNormalizer normalizer = new EnglishTextNormalizer();
        MoonshineCheckpoint base = new MoonshineCheckpoint(
                MoonshineCheckpoint.Kind.ONNX_EXPORT,
                pull(MoonshineFamily.BASE_ENCODER),
                pull(MoonshineFamily.BASE_DECODER),
                null,
                null);
        List<WordErrorRate.Result> ours = new ArrayList<>(), ort = new ArrayList<>();
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                MoonshineModel asr = MoonshineModel.load(engine, base, pull(MoonshineFamily.TOKENIZER));
                KokoroModel tts = KokoroModel.load(engine, KokoroFixtures.model(), vocab);
                OrtKokoro reference = new OrtKokoro(KokoroFixtures.model(), 2)) {
            for (String sentence : SENTENCES) {
                String ph = phonemizer.phonemize(sentence).phonemes();
                long[] ids = vocab.encode(ph);
                float[] style = heart.style(ph.length());
                String truth = normalizer.normalize(sentence);
                String heardOurs = normalizer.normalize(hear(asr, tts.waveform(ids, style, 1f)));
                String heardOrt = normalizer.normalize(
                        hear(asr, reference.run(ids, style, 1f).waveform()));
                ours.add(WordErrorRate.score(truth, heardOurs));
                ort.add(WordErrorRate.score(truth, heardOrt));
                System.err.printf(
                        "[kokoro → moonshine] \"%s\"%n   engine: \"%s\"%n   ORT:    \"%s\"%n",
                        truth, heardOurs, heardOrt);
            }
        }
        WordErrorRate.Result engineTotal = WordErrorRate.total(ours), ortTotal = WordErrorRate.total(ort);
        System.err.println("[kokoro round trip] engine " + engineTotal + "; ONNX Runtime " + ortTotal);
        assertThat(engineTotal.rate()).isLessThanOrEqualTo(0.05);
        assertThat(engineTotal.errors()).isLessThanOrEqualTo(ortTotal.errors());
    }

    /**
     * Moonshine base's greedy transcript of 24 kHz audio. ONNX Runtime's output can burst or hold NaN
     * (docs/KOKORO-WEIGHTS.md): samples that are not finite or beyond ±1 are zeroed, a guard that gives its speech the
     * best chance; it is applied to both outputs alike.
     */
    private static String hear(MoonshineModel asr, float[] audio) {
        float[] clean = Arrays.copyOf(audio, audio.length);
        for (int i = 0; i < clean.length; i++) if (!(Math.abs(clean[i]) <= 1f)) clean[i] = 0f;
        float[] speech = Resampler.resample(clean, 24000, 16000);
        return asr.decode(speech, 0, speech.length, (int) (speech.length / 16000.0 * 6), speech.length)
                .text();
    }

    private static Path pull(ModelFile f) throws Exception {
        return ModelStore.userCache().pull(f, msg -> System.err.println("[model store] " + msg));
    }
}
