package dev.audioengine.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's voice-activity example, compiled as the README shows it (imports included) and run on the example recording. */
class ReadmeVadExampleTest {
    @Test
    void exampleFindsTheSameSpeechOfflineAndStreaming(@TempDir Path dir) throws Exception {
        var lines = ReadmeExamples.printed(() -> ReadmeExamples.run("VadExample", dir, "../docs/examples/speech.wav"));
        long segments = lines.stream().filter(l -> l.startsWith("speech ")).count();
        assertThat(segments).as("the example recording has speech: %s", lines).isGreaterThanOrEqualTo(2);
        assertThat(lines.stream().filter(l -> l.startsWith("START at ")).count())
                .isEqualTo(segments);
        assertThat(lines.stream().filter(l -> l.startsWith("END at ")).count()).isEqualTo(segments);
    }
}
