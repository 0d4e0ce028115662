package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.FakeTtsFamily;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 100 kB text in a JVM whose heap is smaller than its audio: FakeTtsFamily makes 10 ms of 24 kHz audio per
 * character, 1,000 s for this text (96 MB as floats, 48 MB as the WAV), so a run that holds the whole audio (or the
 * text's every piece) runs out of heap where one that writes each piece as it comes does not. Every mode and output
 * is run: streaming and offline, to a file and to standard output.
 */
class TtsBoundedMemoryTest {
    private static final String HEAP = "-Xmx40m";

    @Test
    void aHundredKilobyteTextTakesTheMemoryOfASentenceInEveryModeAndOutput(@TempDir Path dir) throws Exception {
        StringBuilder book = new StringBuilder();
        for (int i = 0; book.length() < 100_000; i++)
            book.append("This is sentence number ").append(i).append(" of a long book.\n");
        Path text = Files.writeString(dir.resolve("book.txt"), book);
        Path model = FakeTtsFamily.modelFile(dir);
        long chars = book.toString()
                .lines()
                .mapToLong(l -> Math.round(l.length() * FakeTtsFamily.RATE / 100.0))
                .sum();
        long wavBytes = 44 + 2 * chars;
        assertThat(wavBytes).as("the audio is larger than the heap").isGreaterThan(40L << 20);

        for (String mode : List.of("streaming", "offline")) {
            for (boolean toStdout : new boolean[] {false, true}) {
                Path wav = dir.resolve(mode + ".wav"),
                        stdout = dir.resolve(mode + ".stdout"),
                        stderr = dir.resolve(mode + ".stderr");
                List<String> command = new ArrayList<>(List.of(
                        java(),
                        HEAP,
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
                        text.toString(),
                        "--out",
                        toStdout ? "-" : wav.toString(),
                        "--mode",
                        mode));
                Process p = new ProcessBuilder(command)
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished").isTrue();
                String err = Files.readString(stderr, StandardCharsets.UTF_8);
                String what = mode + (toStdout ? " to standard output" : " to a file");
                assertThat(p.exitValue()).as(what + ":\n" + err).isZero();
                assertThat(Files.size(toStdout ? stdout : wav)).as(what).isEqualTo(wavBytes);
                Matcher peak = Pattern.compile("peak heap: (\\d+) bytes").matcher(err);
                assertThat(peak.find()).as(err).isTrue();
                System.err.printf(
                        "[tts memory] %s, %s: %d pieces, a %.1f MB WAV, peak heap %.1f MB (garbage included)%n",
                        what,
                        HEAP,
                        book.toString().lines().count(),
                        wavBytes / 1e6,
                        Long.parseLong(peak.group(1)) / 1e6);
                Files.deleteIfExists(wav);
                Files.deleteIfExists(stdout);
            }
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
