package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Standard input (the command line's {@code --audio -}) read by a child JVM, fed WAV and FLAC through a real pipe. */
class StandardInputTest {
    @TempDir
    Path dir;

    static String probe(Path input) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "--add-modules",
                        "jdk.incubator.vector",
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        StandardInputProbe.class.getName())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Thread feeder = Thread.ofPlatform().start(() -> {
            try (var out = p.getOutputStream()) {
                Files.copy(input, out);
            } catch (java.io.IOException ignored) {
                /* the child may stop early */
            }
        });
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        feeder.join();
        return out;
    }

    @Test
    void readsWavAndFlacFromAPipe() throws Exception {
        Path wav = Sox.noiseWav(dir, "in.wav", 22050, 2, 2.0001);
        Path flac = dir.resolve("in.flac");
        Sox.sox(wav.toString(), flac.toString());
        float[] expected;
        try (AudioStream in = AudioStream.open(wav).resampleTo(16000)) {
            expected = in.readAll().samples();
        }
        double sum = 0;
        for (float v : expected) sum += v;
        for (Path f : List.of(wav, flac)) {
            String[] got = probe(f).split("\\|");
            assertThat(got[0]).as(String.join("|", got)).isEqualTo("standard input");
            assertThat(got[1]).contains(f == wav ? "WAV 16-bit" : "FLAC");
            assertThat(Integer.parseInt(got[2])).isEqualTo(expected.length);
            assertThat(Double.parseDouble(got[3])).isEqualTo(sum);
        }
        Path text = Files.writeString(dir.resolve("t.txt"), "not audio at all, just words");
        assertThat(probe(text)).startsWith("error|standard input: not a WAV stream");
    }
}
