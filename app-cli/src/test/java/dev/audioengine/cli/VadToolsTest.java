package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code models pull} and {@code models list}: output shapes and errors. */
class VadToolsTest {

    @Test
    void pullReportsEachFileWithItsHashAndAFamilyNamePullsAllItsModels() {
        VadTaskTest.Run r = VadTaskTest.run("models", "pull", "silero_vad_v5", "silero_vad");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0))
                .contains(
                        "silero_vad_v5",
                        "silero_vad_v5.onnx",
                        "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f");
        assertThat(lines.get(1))
                .contains(
                        "silero_vad ",
                        "silero_vad_v6.onnx",
                        "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3");
        VadTaskTest.Run again = VadTaskTest.run("models", "pull", "silero_vad");
        assertThat(again.out()).startsWith("cached");
    }

    @Test
    void modelsListShowsEveryVariantWithTaskSizeLicenceAndCacheState() {
        VadTaskTest.run("models", "pull", "silero_vad_v5", "silero_vad");
        VadTaskTest.Run table = VadTaskTest.run("models", "list");
        assertThat(table.exit()).as(table.err()).isZero();
        assertThat(table.out())
                .contains("FAMILY", "silero_vad     silero_vad*", "silero_vad_v5", "vad", "2.3 MB", "MIT", "yes");
        VadTaskTest.Run json = VadTaskTest.run("models", "list", "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.out())
                .contains(
                        "\"families\":[{\"name\":\"basic-pitch\"",
                        "{\"name\":\"kokoro\",\"description\"",
                        "{\"name\":\"whisper\",\"description\"",
                        "{\"name\":\"moonshine\",\"description\"",
                        "{\"name\":\"silero_vad\",\"description\"",
                        "\"tasks\":[\"vad\"]",
                        "{\"name\":\"moonshine-tiny\",\"aliases\":[\"tiny\",\"moonshine_tiny\"],\"task\":\"asr\",\"default\":true",
                        "{\"name\":\"silero_vad\",\"aliases\":[\"silero_vad_v6\",\"v6\"],\"task\":\"vad\",\"default\":true",
                        "{\"name\":\"silero_vad_v5\"",
                        "\"licence\":\"MIT\"",
                        "\"bytes\":2327524",
                        "\"cached\":true",
                        "\"sources\":[\"npm package @ricky0123/vad-web@0.0.31, dist/silero_vad_v5.onnx\"]");
    }
}
