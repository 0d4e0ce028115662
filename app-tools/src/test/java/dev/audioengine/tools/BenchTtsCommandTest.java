package dev.audioengine.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.FakeTtsFamily;
import dev.audioengine.cli.testkit.MiniJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code audioengine bench tts} against the fake model: the report's shape and the audio it counts. */
class BenchTtsCommandTest {
    @TempDir
    Path dir;

    private final FakeTtsFamily family = new FakeTtsFamily();

    @Test
    @SuppressWarnings("unchecked")
    void jsonIsOneObjectOverTheDefaultSentences() throws Exception {
        CliRun r = CliRun.run(
                family.registry(),
                "bench",
                "tts",
                "--json",
                "--runs",
                "1",
                "--threads",
                "1",
                "--model",
                FakeTtsFamily.modelFile(dir).toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        Map<String, Object> doc =
                (Map<String, Object>) MiniJson.parseNumbersAsDoubles(r.out().strip());
        assertThat(doc.keySet())
                .containsExactly(
                        "bench",
                        "backend",
                        "model",
                        "threads",
                        "sentences",
                        "audio_seconds",
                        "median_seconds",
                        "realtime_factor",
                        "first_audio_ms",
                        "runs");
        double chars =
                BenchTtsCommand.SENTENCES.stream().mapToInt(String::length).sum();
        assertThat(doc)
                .containsEntry("bench", "tts")
                .containsEntry("backend", "CPU")
                .containsEntry("model", "fake-tts (sines)")
                .containsEntry("threads", 1.0)
                .containsEntry("sentences", 10.0)
                .containsEntry("runs", 1.0)
                .containsEntry("audio_seconds", chars / 100);
        assertThat((Double) doc.get("realtime_factor")).isPositive();
        assertThat((Double) doc.get("first_audio_ms")).isBetween(0.0, (Double) doc.get("median_seconds") * 1000);
    }

    @Test
    void aTextFileGivesTheSentencesOnePerLineAndTheVoiceIsChecked() throws Exception {
        Path model = FakeTtsFamily.modelFile(dir),
                text = Files.writeString(dir.resolve("s.txt"), "One sentence.\n\nAnother one here.\n");
        CliRun r = CliRun.run(
                family.registry(),
                "bench",
                "tts",
                "--runs",
                "1",
                "--text-file",
                text.toString(),
                "--voice",
                "bm_george",
                "--model",
                model.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out())
                .startsWith("tts fake-tts (sines) backend CPU threads ")
                .contains("  2 sentences, 0.3 s of audio  median ")
                .contains("x real time  first audio ")
                .contains("(1 run)");
        assertThat(family.lastOptions.voice()).isEqualTo("bm_george");

        CliRun voice = CliRun.run(
                family.registry(), "bench", "tts", "--runs", "1", "--voice", "zz_none", "--model", model.toString());
        assertThat(voice.exit()).isEqualTo(2);
        assertThat(voice.err()).contains("error: unknown voice 'zz_none'");
        CliRun runs = CliRun.run(family.registry(), "bench", "tts", "--runs", "0");
        assertThat(runs.exit()).isEqualTo(2);
        assertThat(runs.err()).contains("--runs must be >= 1, got 0");
    }
}
