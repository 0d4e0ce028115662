package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.LongFormOptions;
import dev.audioengine.model.task.LongFormOptions.Segmenter;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whisper family as the command line reaches it: found by name in the registry, a whisper.cpp file and a
 * transformers folder accepted by {@code --model PATH}, other files refused saying why; the recognizer decodes a
 * window as the model does (language given, timestamps on), refuses languages it does not know and, English-only,
 * translation; long audio goes through Whisper's own windows by default, through the VAD's on request (windows of at
 * most 30 s).
 */
class WhisperFamilyTest {
    static final WhisperConfig C = new WhisperConfig(51865, 1500, 64, 4, 1, 448, 64, 4, 1, 80);

    @Test
    void loadsBothLayoutsThroughTheRegistryAndDecodesWindows(@TempDir Path dir) throws Exception {
        long seed = new SplittableRandom().nextLong();
        GgmlWriter w = new GgmlWriter(C, true, seed, 4 + 12);
        Path ggml = dir.resolve("ggml-tiny-random.bin"), hf = dir.resolve("hf");
        w.write(ggml, Gpt2Vocabulary.bytes());
        TransformersLayout.write(w, hf, Gpt2Vocabulary.encoderJson());
        ModelLoader loader = ModelLoader.standard(dev.audioengine.model.store.PullListener.SILENT);
        assertThat(loader.choose(Task.ASR, "whisper", ggml.toString()).description())
                .contains("whisper.cpp model");
        assertThat(loader.choose(Task.ASR, "whisper", hf.toString()).description())
                .contains("transformers layout");
        Path notes = Files.writeString(dir.resolve("notes.bin"), "not a model");
        assertThatThrownBy(() -> loader.choose(Task.ASR, "whisper", notes.toString()))
                .hasMessageContaining("neither a whisper.cpp ggml file");

        float[] audio = WhisperCppParityTest.audio(seed, 4 * 16000);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                SpeechRecognizer asr =
                        (SpeechRecognizer) loader.load(engine, loader.choose(Task.ASR, "whisper", ggml.toString()));
                WhisperModel model = WhisperModel.load(engine, ggml)) {
            AsrOptions german = AsrOptions.DEFAULTS.withLanguage("de");
            var window = asr.transcribeWindow(audio, 16000, german);
            var direct = model.decode(audio, 0, audio.length, new WhisperModel.Options("de", false, true, 220));
            assertThat(window.tokens()).isEqualTo(direct.tokens()).isNotEmpty();
            assertThat(window.text()).isEqualTo(direct.text().strip());
            assertThat(window.startSample()).isEqualTo(16000);
            assertThat(direct.language()).isEqualTo("de");
            // beam size and prompt reach the window's decoding
            var beamed = asr.transcribeWindow(audio, 0, german.withBeamSize(3).withPrompt("Guten Tag."));
            var beamedDirect = model.decode(
                    audio, 0, audio.length, new WhisperModel.Options("de", false, true, 220, 3, "Guten Tag."));
            assertThat(beamed.tokens()).isEqualTo(beamedDirect.tokens()).isNotEmpty();
            var auto = model.decode(audio, 0, audio.length, WhisperModel.Options.DEFAULT);
            assertThat(auto.language())
                    .isEqualTo(WhisperModel.bestLanguage(model.detectLanguage(audio, 0, audio.length)));

            assertThatThrownBy(() -> asr.transcribeWindow(audio, 0, AsrOptions.DEFAULTS.withLanguage("xx")))
                    .hasMessageContaining("no language \"xx\"");
            AsrOptions vad = AsrOptions.DEFAULTS.withLongForm(LongFormOptions.DEFAULTS.withSegmenter(Segmenter.VAD));
            // silence, through the VAD: no windows, no text
            Transcript t = asr.transcribe(new float[45 * 16000], vad.withMaxWindowSeconds(60));
            assertThat(t.segments()).isEmpty();
            // offline by default: Whisper's own windows, the segments of the model's long-form decoding
            float[] longer = WhisperCppParityTest.audio(seed, 40 * 16000 + 5);
            Transcript whole = asr.transcribe(longer, AsrOptions.DEFAULTS.withLanguage("en"));
            var windows = model.transcribeSequentially(
                    longer, new WhisperModel.Options("en", false, true, 220), LongFormOptions.DEFAULTS);
            assertThat(windows.windows()).hasSizeGreaterThan(1);
            assertThat(whole.segments().stream().map(x -> x.tokens()).toList())
                    .isEqualTo(windows.windows().stream()
                            .flatMap(x -> x.segments().stream())
                            .map(x -> x.tokens())
                            .toList());
            assertThat(whole.decodedTokens()).isPositive();
            // each segment carries its window's kept pass: temperature, mean log-probability, the window text's
            // compression ratio, no-speech probability (verbose_json's per-segment figures); and the language
            java.util.List<dev.audioengine.model.task.DecodingStats> expected = new java.util.ArrayList<>();
            for (var x : windows.windows()) {
                String text = model.tokenizer()
                        .decode(x.tokens().stream()
                                .filter(id -> id < model.tokenizer().eot())
                                .toList());
                for (int i = 0; i < x.segments().size(); i++)
                    expected.add(new dev.audioengine.model.task.DecodingStats(
                            x.temperature(),
                            x.averageLogProbability(),
                            WhisperLongForm.compressionRatio(text),
                            x.noSpeechProbability()));
            }
            // (the registry's recognizer and this model are two loads: the same tokens, probabilities within float
            // rounding)
            assertThat(whole.segments()).hasSameSizeAs(expected);
            for (int i = 0; i < expected.size(); i++) {
                var got = whole.segments().get(i).decoding();
                var want = expected.get(i);
                assertThat(got.temperature()).isEqualTo(want.temperature());
                assertThat(got.compressionRatio()).isEqualTo(want.compressionRatio());
                assertThat(got.averageLogProbability())
                        .isCloseTo(want.averageLogProbability(), org.assertj.core.data.Offset.offset(1e-4));
                assertThat(got.noSpeechProbability())
                        .isCloseTo(want.noSpeechProbability(), org.assertj.core.data.Percentage.withPercentage(0.1));
            }
            assertThat(expected).allMatch(x -> x.compressionRatio() > 0 && x.noSpeechProbability() > 0);
            assertThat(whole.segments()).allMatch(x -> "en".equals(x.language()));
            // a live stream cannot seek: asking for Whisper's windows there is refused, saying what to do
            assertThatThrownBy(() -> asr.stream(AsrOptions.DEFAULTS.withLongForm(
                            LongFormOptions.DEFAULTS.withSegmenter(Segmenter.WHISPER))))
                    .hasMessageContaining("transcribe it offline");
            // the harmonic chirp is speech to the VAD: its windows' timestamped segments, in order, inside the audio
            Transcript heard = asr.transcribe(audio, vad.withLanguage("en"));
            assertThat(heard.segments()).isNotEmpty();
            long previous = 0;
            for (var s : heard.segments()) {
                assertThat(s.startSample()).isGreaterThanOrEqualTo(previous);
                assertThat(s.endSample())
                        .isGreaterThanOrEqualTo(s.startSample())
                        .isLessThanOrEqualTo(audio.length);
                previous = s.startSample();
            }
            assertThat(heard.text()).isNotBlank();
            // the VAD's windows decode once, at temperature 0
            assertThat(heard.segments())
                    .allMatch(x -> x.decoding() != null
                            && x.decoding().temperature() == 0
                            && x.decoding().noSpeechProbability() > 0
                            && x.decoding().compressionRatio() > 0);
        }
    }

    @Test
    void aModelFileOfAnotherKindIsRefusedAsAFormatError(@TempDir Path dir) throws Exception {
        Path fake = dir.resolve("ggml-broken.bin");
        Files.write(fake, new byte[] {0x6c, 0x6d, 0x67, 0x67, 1, 2, 3});
        assertThatThrownBy(() -> new WhisperFamily().validate(fake)).isInstanceOf(java.io.IOException.class);
        assertThat(new WhisperFamily().defaultVariant(Task.ASR).name()).isEqualTo("ggml-base");
    }
}
