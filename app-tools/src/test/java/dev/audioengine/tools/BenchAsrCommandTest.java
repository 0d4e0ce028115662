package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.cli.ErrorReporter;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.FakeAsrFamily;
import dev.audioengine.cli.testkit.MiniJson;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench asr with the scripted family: the report's shape and arithmetic, and where the default audio comes from. */
class BenchAsrCommandTest {
    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void jsonReportsOneObjectOverAllFiles() throws Exception {
        FakeAsrFamily family = new FakeAsrFamily("hello world", "this is a test");
        Path a = FakeAsrFamily.wav(dir.resolve("a.wav"), 0.5, 1.0, 0.5, 1.5, 0.5),
                b = FakeAsrFamily.wav(dir.resolve("b.wav"), 1.0, 1.0);
        CliRun r = CliRun.run(
                family.registry(),
                "bench",
                "asr",
                "--json",
                "--runs",
                "1",
                "--threads",
                "1",
                "--model",
                FakeAsrFamily.modelFile(dir).toString(),
                "--audio",
                a.toString(),
                b.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        Map<String, Object> doc =
                (Map<String, Object>) MiniJson.parseNumbersAsDoubles(r.out().strip());
        assertThat(doc.keySet())
                .containsExactly(
                        "bench",
                        "backend",
                        "model",
                        "threads",
                        "files",
                        "audio_seconds",
                        "median_seconds",
                        "realtime_factor",
                        "tokens",
                        "ms_per_token",
                        "runs");
        assertThat(doc)
                .containsEntry("bench", "asr")
                .containsEntry("backend", "CPU")
                .containsEntry("model", "fake-asr (scripted)")
                .containsEntry("threads", 1.0)
                .containsEntry("files", 2.0)
                .containsEntry("audio_seconds", 6.0)
                .containsEntry("tokens", 8.0)
                .containsEntry("runs", 1.0); // a: 2 + 4 words, b: its one stretch says "hello world"
        double seconds = (Double) doc.get("median_seconds");
        assertThat(seconds).isGreaterThanOrEqualTo(0);
        assertThat((Double) doc.get("realtime_factor")).isPositive();
        assertThat(family.loads).as("the model is loaded once for every round").hasValue(1);

        CliRun plain = CliRun.run(
                family.registry(),
                "bench",
                "asr",
                "--runs",
                "1",
                "--model",
                FakeAsrFamily.modelFile(dir).toString(),
                "--audio",
                a.toString());
        assertThat(plain.exit()).as(plain.toString()).isZero();
        assertThat(plain.out())
                .matches(
                        "asr fake-asr \\(scripted\\) backend CPU threads \\d+  1 file, 4\\.0 s of audio  median \\d+\\.\\d{3} s  "
                                + "\\d+\\.\\dx real time  6 tokens  \\d+\\.\\d{2} ms/token  \\(1 run\\)\n");
    }

    @Test
    void languageAndNoFallbackReachTheRecognizer() throws Exception {
        FakeAsrFamily family = new FakeAsrFamily("hello world");
        Path a = FakeAsrFamily.wav(dir.resolve("a.wav"), 0.5, 1.0, 0.5);
        String model = FakeAsrFamily.modelFile(dir).toString();
        CliRun plain =
                CliRun.run(family.registry(), "bench", "asr", "--runs", "1", "--model", model, "--audio", a.toString());
        assertThat(plain.exit()).as(plain.toString()).isZero();
        assertThat(family.lastOptions.language())
                .as("the model's own language by default")
                .isNull();
        assertThat(family.lastOptions.longForm().temperatureIncrement()).isEqualTo(0.2);

        CliRun pinned = CliRun.run(
                family.registry(),
                "bench",
                "asr",
                "--runs",
                "1",
                "--model",
                model,
                "--audio",
                a.toString(),
                "--language",
                "EN",
                "--no-fallback");
        assertThat(pinned.exit()).as(pinned.toString()).isZero();
        assertThat(family.lastOptions.language()).isEqualTo("en");
        assertThat(family.lastOptions.longForm().temperatureIncrement()).isZero();
        assertThat(family.lastOptions.longForm().temperature()).isZero();

        CliRun bad = CliRun.run(
                family.registry(), "bench", "asr", "--model", model, "--audio", a.toString(), "--language", "e1");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--language: language must be a code such as en or de");
    }

    @Test
    void badRequestsAreUsageErrors() throws Exception {
        FakeAsrFamily family = new FakeAsrFamily("x");
        CliRun runs = CliRun.run(family.registry(), "bench", "asr", "--runs", "0");
        assertThat(runs.exit()).isEqualTo(2);
        assertThat(runs.err()).contains("--runs must be >= 1, got 0");
        CliRun stdin = CliRun.run(
                family.registry(),
                "bench",
                "asr",
                "--audio",
                "-",
                "--model",
                FakeAsrFamily.modelFile(dir).toString());
        assertThat(stdin.exit()).isEqualTo(2);
        assertThat(stdin.err()).contains("name files, not - (standard input)");
        assertThat(family.loads).hasValue(0);
    }

    @Test
    void theDefaultAudioIsPocketsphinxTestdataAndItsAbsenceNamesThePackage() throws Exception {
        assertThatThrownBy(() -> BenchAsrCommand.defaultAudio(dir.resolve("none")))
                .isInstanceOf(NoSuchFileException.class)
                .satisfies(
                        e -> assertThat(ErrorReporter.message(e))
                                .isEqualTo(
                                        dir.resolve("none/librivox")
                                                + ": missing; install Debian's pocketsphinx-testdata (sudo apt-get install pocketsphinx-testdata) or name the audio with --audio FILE..."));
        Files.createDirectories(dir.resolve("data/librivox"));
        Files.createDirectories(dir.resolve("data/cards"));
        Path l = Files.writeString(dir.resolve("data/librivox/b.wav"), ""),
                c = Files.writeString(dir.resolve("data/cards/a.wav"), "");
        Files.writeString(dir.resolve("data/cards/cards.hyp"), "");
        assertThat(BenchAsrCommand.defaultAudio(dir.resolve("data"))).containsExactly(l, c);
    }

    @Test
    void benchAsrReportsOneJsonObject() {
        CliRun r = CliRun.run(
                "bench",
                "asr",
                "--json",
                "--runs",
                "1",
                "--threads",
                "1",
                "--audio",
                Path.of("/usr/share/pocketsphinx/test/data/cards")
                        .resolve("001.wav")
                        .toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Map<?, ?> o = (Map<?, ?>) MiniJson.parseNumbersAsDoubles(r.out());
        assertThat(o.get("bench")).isEqualTo("asr");
        assertThat(o.get("model")).isEqualTo("moonshine-tiny");
        assertThat((Double) o.get("tokens")).isGreaterThan(2);
        assertThat((Double) o.get("realtime_factor")).isPositive();
    }
}
