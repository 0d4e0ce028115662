package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.audio.WavReader;
import dev.audioengine.model.output.WavWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29, item 11: long inputs run in bounded memory. Five minutes of speech (Debian's five LibriVox recordings,
 * twelve times)
 * through the launcher with a 600 MB heap: each window length used to compile an encoder graph whose matmuls held
 * packed-input scratch of their own, megabytes each, and this ran out of heap; now the graph's matmuls share one.
 */
class LongInputMemoryIT {
    @Test
    void fiveMinutesOfSpeechTranscribeInA600MegabyteHeap(@TempDir Path dir) throws Exception {
        List<Path> clips;
        try (Stream<Path> s = Files.list(Path.of("/usr/share/pocketsphinx/test/data/librivox"))) {
            clips = s.filter(p -> p.toString().endsWith(".wav")).sorted().toList();
        }
        assertThat(clips).hasSize(5);
        List<float[]> parts = new ArrayList<>();
        for (int round = 0; round < 12; round++)
            for (Path c : clips) parts.add(WavReader.read(c).samples());
        float[] all = new float[parts.stream().mapToInt(a -> a.length).sum()];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        Path wav = dir.resolve("long.wav");
        WavWriter.writePcm16(wav, all, 16000);
        assertThat(all.length / 16000.0).as("seconds of audio").isGreaterThan(240);

        Path out = dir.resolve("out.txt"), err = dir.resolve("err.txt");
        ProcessBuilder pb = new ProcessBuilder(
                        Dist.repoRoot().resolve("audioengine").toString(),
                        "--task",
                        "asr",
                        "--audio",
                        wav.toString(),
                        "--threads",
                        "2")
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("AUDIOENGINE_NO_BUILD", "1");
        pb.environment().put("JAVA_HOME", Dist.javaHome().toString());
        pb.environment().put("AUDIOENGINE_JAVA_OPTS", "-Xmx600m");
        Process p = pb.start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out");
        }
        String stderr = Files.readString(err);
        assertThat(p.exitValue()).as(stderr).isZero();
        assertThat(stderr).doesNotContain("out of Java heap memory");
        assertThat(Files.readString(out)).contains("Dashwood");
    }
}
