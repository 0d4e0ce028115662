package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.cli.testkit.FakeTtsFamily;
import dev.audioengine.model.task.SynthesisOptions;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --task tts} stopped by SIGTERM (what {@code kill} and Process.destroy send) in a child JVM with
 * {@link FakeTtsFamily}: the text comes from a pipe the test holds open, so the run is stopped between two pieces.
 * Streaming keeps what was made under --out as a complete WAV; offline, which promises a file only once it is whole,
 * leaves nothing; neither leaves its hidden partial file behind.
 */
class TtsStopTest {
    private static final String FIRST = "The first sentence is said.";

    @Test
    void streamingKeepsThePiecesMadeAsAValidWavAndOfflineLeavesNothing(@TempDir Path dir) throws Exception {
        Path model = FakeTtsFamily.modelFile(dir);
        for (String mode : List.of("streaming", "offline")) {
            Path wav = dir.resolve(mode + ".wav"), stderr = dir.resolve(mode + ".stderr");
            Process p = new ProcessBuilder(
                            java(),
                            "--add-modules",
                            "jdk.incubator.vector",
                            "--enable-native-access=ALL-UNNAMED",
                            "-cp",
                            classPath(),
                            FakeTtsMain.class.getName(),
                            "--task",
                            "tts",
                            "--model",
                            model.toString(),
                            "--threads",
                            "1",
                            "--text-file",
                            "-",
                            "--out",
                            wav.toString(),
                            "--mode",
                            mode)
                    .redirectError(stderr.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            OutputStream text = p.getOutputStream();
            text.write((FIRST + "\n").getBytes(StandardCharsets.UTF_8));
            text.flush();
            // the first piece is being written once its hidden partial file exists; the run then waits for more text
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (partials(dir).isEmpty() && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(partials(dir))
                    .as(mode + ": the partial file appeared; stderr:\n" + Files.readString(stderr))
                    .isNotEmpty();
            Thread.sleep(300); // the piece is written to it and the reader is back to waiting on the pipe
            // the handle's destroy sends SIGTERM alone; Process.destroy also closes the pipe, and the end of the text
            // would
            // let the run finish on its own
            p.toHandle().destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(mode + " ended").isTrue();
            String err = Files.readString(stderr);
            assertThat(partials(dir))
                    .as(mode + ": no partial file left; stderr:\n" + err)
                    .isEmpty();
            if (mode.equals("streaming")) {
                AudioClip clip = WavReader.read(wav);
                assertThat(clip.samples())
                        .as("the first piece, whole")
                        .hasSize(FakeTtsFamily.audio(FIRST, SynthesisOptions.DEFAULTS).length);
                assertThat(err).contains("stopped").contains(wav.toString());
            } else {
                assertThat(wav).as("offline: no file").doesNotExist();
            }
        }
    }

    private static List<Path> partials(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".partial"))
                    .toList();
        }
    }

    private static String java() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Surefire's test class path (java.class.path may be its booter jar only). */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }
}
