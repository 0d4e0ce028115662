package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.store.PullListener;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.testkit.FakeHub;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whisper by name from a loopback fake Hugging Face hub ({@link FakeHub}: the model API's metadata and the files), in
 * both layouts: {@code ggml-tiny} (whisper.cpp's file from ggerganov/whisper.cpp) and {@code whisper-tiny}
 * (openai/whisper-tiny's safetensors, config and tokenizer), here holding seeded random weights at a reduced size. What
 * the named model transcribes must equal what {@code --model PATH} on the same files transcribes; a second load uses
 * the cache without the hub; a wrong name lists the names there are.
 */
class WhisperHubTest {
    static final WhisperConfig C = new WhisperConfig(51865, 1500, 64, 4, 1, 448, 64, 4, 1, 80);

    @Test
    void bothLayoutsFetchedByNameTranscribeAsTheSameFilesByPath(@TempDir Path dir) throws Exception {
        long seed = new SplittableRandom().nextLong();
        GgmlWriter w = new GgmlWriter(C, true, seed, 4 + 12);
        Path ggml = dir.resolve("ggml-tiny.bin"), hf = dir.resolve("hf");
        w.write(ggml, Gpt2Vocabulary.bytes());
        TransformersLayout.write(w, hf, Gpt2Vocabulary.encoderJson());
        Path cache = dir.resolve("cache");
        try (FakeHub hub = new FakeHub()) {
            hub.put(WhisperFamily.GGML_REPO, "ggml-tiny.bin", Files.readAllBytes(ggml));
            for (String f : WhisperFamily.TRANSFORMERS_FILES)
                hub.put("openai/whisper-tiny", f, Files.readAllBytes(hf.resolve(f)));
            ModelLoader loader = new ModelLoader(
                    FamilyRegistry.of(List.of(new WhisperFamily())),
                    new ModelStore(cache, "npm", hub.endpoint(), null),
                    PullListener.SILENT);
            float[] audio = WhisperCppParityTest.audio(seed, 3 * 16000 + 77);
            AsrOptions english = AsrOptions.DEFAULTS.withLanguage("en");
            try (AudioEngine engine =
                    AudioEngine.builder().backend("cpu").threads(2).build()) {
                for (String[] pair : new String[][] {{"ggml-tiny", ggml.toString()}, {"whisper-tiny", hf.toString()}}) {
                    var named = loader.choose(Task.ASR, "whisper", pair[0]);
                    assertThat(named.location().namedVariant().map(ModelVariant::name))
                            .contains(pair[0]);
                    assertThat(named.location().path()).startsWith(cache);
                    var byPath = loader.choose(Task.ASR, "whisper", pair[1]);
                    try (SpeechRecognizer a = (SpeechRecognizer) loader.load(engine, named);
                            SpeechRecognizer b = (SpeechRecognizer) loader.load(engine, byPath)) {
                        var ta = a.transcribeWindow(audio, 0, english);
                        var tb = b.transcribeWindow(audio, 0, english);
                        assertThat(ta.tokens()).as(pair[0]).isNotEmpty().isEqualTo(tb.tokens());
                        assertThat(ta.text()).isEqualTo(tb.text());
                        assertThat(a.describe()).contains(pair[0]);
                    }
                }
            }
            assertThat(hub.count("GET /ggerganov/whisper.cpp/resolve/" + hub.commit + "/ggml-tiny.bin"))
                    .isEqualTo(1);
            assertThat(hub.count("GET /openai/whisper-tiny/resolve/" + hub.commit + "/tokenizer.json"))
                    .isEqualTo(1);
            assertThat(Files.readAllBytes(cache.resolve("whisper-tiny.model.safetensors")))
                    .isEqualTo(Files.readAllBytes(hf.resolve("model.safetensors")));
        }
        // the hub is gone: the cached, pinned files still load by name
        ModelLoader offline = new ModelLoader(
                FamilyRegistry.of(List.of(new WhisperFamily())),
                new ModelStore(cache, "npm", java.net.URI.create("http://127.0.0.1:9"), null),
                PullListener.SILENT);
        assertThat(offline.choose(Task.ASR, "whisper", "whisper-tiny")
                        .location()
                        .file("whisper-tiny.config.json"))
                .exists();
        assertThatThrownBy(() -> offline.choose(Task.ASR, "whisper", "ggml-base"))
                .hasMessageContaining("could not ask the Hugging Face hub")
                .hasMessageContaining("--model PATH");
    }

    @Test
    void aWrongNameListsTheWhisperNames(@TempDir Path dir) {
        ModelLoader loader = new ModelLoader(
                FamilyRegistry.of(List.of(new WhisperFamily())),
                new ModelStore(dir, "npm", java.net.URI.create("http://127.0.0.1:9"), null),
                PullListener.SILENT);
        assertThatThrownBy(() -> loader.choose(Task.ASR, "whisper", "whisper-huge"))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("whisper-large-v3-turbo")
                .hasMessageContaining("ggml-base-q5_1")
                .hasMessageContaining("ggml-tiny.en");
    }

    @Test
    void everyVariantNamesItsHubFileAndTheNamesAreUnique() {
        List<ModelVariant> vs = new WhisperFamily().variants();
        List<String> names = new ArrayList<>(vs.stream().map(ModelVariant::name).toList());
        assertThat(names).doesNotHaveDuplicates();
        for (String size : List.of(
                "tiny",
                "tiny.en",
                "base",
                "base.en",
                "small",
                "small.en",
                "medium",
                "large-v3",
                "large-v3-turbo",
                "distil-large-v3")) {
            assertThat(names).contains("ggml-" + size, "whisper-" + size);
        }
        for (ModelVariant v : vs) {
            assertThat(v.files()).allMatch(f -> f.pinnedByHub());
            var src = (dev.audioengine.model.ModelSource.HuggingFace)
                    v.files().getFirst().sources().getFirst();
            if (v.name().startsWith("ggml-")) assertThat(src.path()).isEqualTo(v.name() + ".bin");
            else assertThat(src.repo()).endsWith("/" + v.name().replaceFirst("^whisper-distil-", "distil-"));
        }
    }
}
