package dev.audioengine.models.kokoro;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.Resampler;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import dev.audioengine.models.moonshine.MoonshineCheckpoint;
import dev.audioengine.models.moonshine.MoonshineFamily;
import dev.audioengine.models.moonshine.MoonshineModel;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Is ONNX Runtime's Kokoro output speech of the right words? The engine's Moonshine base recognizer (checked against
 * its own ORT reference elsewhere) transcribes it, resampled to 16 kHz, without the export's end burst.
 */
class KokoroSpeechRoundTripTest {
    @Test
    void moonshineHearsTheSentences() throws Exception {
        KokoroVocabulary vocab = KokoroVocabulary.read(KokoroFixtures.tokenizer());
        KokoroVoice heart = KokoroVoice.read("af_heart", KokoroFixtures.voice("af_heart"));
        String[][] sentences = {
                {OrtKokoroTest.HELLO_WORLD, "hello world"},
                {"ðə kwˈɪk bɹˈWn fˈɑks ʤˈʌmps ˌOvəɹ ðə lˈAzi dˈɔɡ.", "the quick brown fox jumps over the lazy dog"}};
        MoonshineCheckpoint base = new MoonshineCheckpoint(MoonshineCheckpoint.Kind.ONNX_EXPORT, pull(MoonshineFamily.BASE_ENCODER),
                pull(MoonshineFamily.BASE_DECODER), null, null);
        try (AudioEngine engine = AudioEngine.builder().backend("cpu").threads(2).build();
             MoonshineModel asr = MoonshineModel.load(engine, base, pull(MoonshineFamily.TOKENIZER));
             OrtKokoro tts = new OrtKokoro(KokoroFixtures.model(), 2)) {
            for (String[] s : sentences) {
                float[] audio = tts.run(vocab.encode(s[0]), heart.style(s[0].length()), 1f).waveform();
                float[] speech = Resampler.resample(Arrays.copyOf(audio, audio.length - 50), 24000, 16000);
                String text = asr.decode(speech, 0, speech.length, (int) (speech.length / 16000.0 * 6), speech.length).text();
                System.err.println("[kokoro → moonshine] " + s[1] + " → \"" + text + "\"");
                assertThat(text.toLowerCase(Locale.ROOT).replaceAll("[^a-z ]", "").strip()).isEqualTo(s[1]);
            }
        }
    }

    private static Path pull(ModelFile f) throws Exception {
        return ModelStore.userCache().pull(f, msg -> System.err.println("[model store] " + msg));
    }
}
