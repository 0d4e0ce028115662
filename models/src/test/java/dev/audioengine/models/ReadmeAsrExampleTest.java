package dev.audioengine.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's speech-recognition example, compiled as the README shows it (imports included) and run on the example recording. */
class ReadmeAsrExampleTest {
    @Test
    void exampleTranscribesTheExampleRecordingOfflineAndLive(@TempDir Path dir) throws Exception {
        var lines =
                ReadmeExamples.printed(() -> ReadmeExamples.run("AsrExample", dir, "../docs/examples/dashwood.wav"));
        String said =
                "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.";
        assertThat(lines).anyMatch(l -> l.startsWith("[") && l.endsWith("] " + said));
        assertThat(lines).contains("final: " + said);
    }
}
