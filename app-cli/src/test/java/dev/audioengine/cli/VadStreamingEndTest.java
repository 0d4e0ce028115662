package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Defect 2: streaming mode lost the last partial chunk and a segment still open at the end of
 * the file whenever the file's length was not a multiple of the 20 ms feeding piece.
 */
class VadStreamingEndTest {
    private static final Path EXAMPLE = Path.of("../docs/examples/speech.wav");

    @Test
    void streamingReportsTheSegmentOpenAtTheEndAndEveryChunksProbability(@TempDir Path dir) throws Exception {
        Path cut = dir.resolve("cut.wav");
        Process sox = new ProcessBuilder("sox", EXAMPLE.toString(), cut.toString(), "trim", "0", "5.0101")
                .inheritIO()
                .start();
        assertThat(sox.waitFor())
                .as("sox (Debian package sox) cuts the example")
                .isZero();

        Path offlineProbs = dir.resolve("offline.txt"), streamingProbs = dir.resolve("streaming.txt");
        VadTaskTest.Run offline = VadTaskTest.run(
                "--task",
                "vad",
                "--audio",
                cut.toString(),
                "--threads",
                "1",
                "--probabilities-out",
                offlineProbs.toString());
        VadTaskTest.Run streaming = VadTaskTest.run(
                "--task",
                "vad",
                "--audio",
                cut.toString(),
                "--threads",
                "1",
                "--mode",
                "streaming",
                "--probabilities-out",
                streamingProbs.toString());
        assertThat(offline.exit()).as(offline.err()).isZero();
        assertThat(streaming.exit()).as(streaming.err()).isZero();
        assertThat(offline.out())
                .as("the last segment is open at the end of the file")
                .endsWith(" - 5.010\n");
        assertThat(streaming.out()).isEqualTo(offline.out());
        // 5.0101 s at 16 kHz: 80161 samples, 157 chunks of 512, the last one partial
        assertThat(Files.readAllLines(streamingProbs)).hasSize(157).hasSameSizeAs(Files.readAllLines(offlineProbs));
    }
}
