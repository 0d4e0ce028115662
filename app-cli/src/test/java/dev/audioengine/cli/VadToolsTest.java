package dev.audioengine.cli;

import dev.audioengine.models.ModelStore;
import dev.audioengine.models.silero.SileroModelFiles;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code models pull} and {@code bench vad}: output shapes and errors. */
class VadToolsTest {

    @Test
    void pullReportsBothSileroFilesWithTheirHashes() throws Exception {
        SileroModelFiles.resolve(null, ModelStore.userCache(), m -> {}); // make sure they are cached
        VadTaskTest.Run r = VadTaskTest.run("models", "pull", "silero_vad");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("cached").contains("silero_vad_v5.onnx", "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f");
        assertThat(lines.get(1)).startsWith("cached").contains("silero_vad_v6.onnx", "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3");
        VadTaskTest.Run bad = VadTaskTest.run("models", "pull", "whisper");
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).contains("unknown model 'whisper'").contains("silero_vad");
    }

    @Test
    void benchVadJsonHasOneObjectPerMode() {
        VadTaskTest.Run r = VadTaskTest.run("bench", "vad", "--json", "--runs", "1", "--threads", "1", "--audio", "../docs/examples/speech.wav");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        String number = "\\d+(\\.\\d+)?";
        for (int i = 0; i < 2; i++) {
            assertThat(lines.get(i)).matches("\\{\"bench\":\"vad\",\"backend\":\"CPU\",\"mode\":\"" + (i == 0 ? "streaming" : "offline")
                    + "\",\"threads\":1,\"us_per_chunk\":" + number + ",\"realtime_factor\":" + number + "}");
        }
        assertThat(VadTaskTest.run("bench", "asr").exit()).isEqualTo(2);
    }
}
