package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.FakeAsrFamily;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whisper's named variants as the command line shows them: listed as fetched from the Hugging Face hub (their size and
 * sha256 come from the hub at the pull), in both layouts; a wrong name is a usage error listing the names there are.
 * (Fetching by name is tested against a loopback fake hub in the models module's WhisperHubTest.)
 */
class WhisperVariantsCliTest {
    @Test
    void modelsListShowsBothLayoutsAsFetchedFromTheHub() {
        CliRun table = CliRun.run("models", "list");
        assertThat(table.exit()).as(table.err()).isZero();
        assertThat(table.out())
                .containsPattern("whisper +ggml-base +asr +hub +MIT")
                .containsPattern("whisper +whisper-large-v3-turbo +asr +hub +MIT")
                .contains("ggml-large-v3-turbo-q5_0", "ggml-tiny.en", "whisper-distil-large-v3")
                .contains("SIZE hub: fetched from the Hugging Face hub");
        CliRun json = CliRun.run("models", "list", "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.out())
                .contains("{\"name\":\"ggml-base-q5_1\",\"aliases\":[],\"task\":\"asr\"")
                .contains("\"sha256\":null,\"pinned_by_hub\":true,\"bytes\":0,\"sources\":[\"Hugging Face"
                        + " ggerganov/whisper.cpp@main, ggml-base-q5_1.bin"
                        + " (https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-base-q5_1.bin)\"]")
                .contains("\"sources\":[\"Hugging Face openai/whisper-small.en@main, tokenizer.json"
                        + " (https://huggingface.co/openai/whisper-small.en/resolve/main/tokenizer.json)\"]")
                .contains("\"sha256\":\"1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3\","
                        + "\"pinned_by_hub\":false");
    }

    @Test
    void pullingTheWholeFamilyIsRefusedNamingTheModels() {
        CliRun r = CliRun.run("models", "pull", "whisper");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("whisper has ", "models fetched from the Hugging Face hub", "ggml-base-q5_1");
    }

    @Test
    void aWrongWhisperNameListsTheNamesThereAre(@TempDir Path dir) throws Exception {
        Path speech = FakeAsrFamily.wav(dir.resolve("speech.wav"), 0.5, 1.0, 0.5);
        CliRun r = CliRun.run(
                "--task", "asr", "--family", "whisper", "--audio", speech.toString(), "--model", "whisper-huge");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err())
                .contains("unknown model 'whisper-huge'")
                .contains("whisper-large-v3-turbo", "ggml-base-q5_1", "ggml-tiny.en", "whisper-distil-large-v3");
    }
}
