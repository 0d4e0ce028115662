package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --task asr} with the real default family (moonshine-tiny, pulled from npm on first use)
 * on Debian's recorded speech: what a user types, end to end in one process.
 */
class MoonshineCliTest {
    private static final Path CARDS = Path.of("/usr/share/pocketsphinx/test/data/cards");

    @Test
    void transcribesRecordedSpeechAsTextJsonAndSubtitles(@TempDir Path dir) throws Exception {
        String wav = CARDS.resolve("001.wav").toString();
        VadTaskTest.Run plain = VadTaskTest.run("--task", "asr", "--audio", wav, "--threads", "1");
        assertThat(plain.exit()).as(plain.err()).isZero();
        assertThat(plain.out().strip()).isEqualTo("Ten of clubs.");

        VadTaskTest.Run json = VadTaskTest.run(
                "--task", "asr", "--audio", wav, CARDS.resolve("005.wav").toString(), "--json", "--threads", "1");
        assertThat(json.exit()).as(json.err()).isZero();
        List<?> docs = (List<?>) AsrTaskTest.json(json.out());
        assertThat(docs).hasSize(2);
        Map<?, ?> first = (Map<?, ?>) docs.getFirst();
        assertThat(first.get("text")).isEqualTo("Ten of clubs.");
        assertThat(first.get("model")).isEqualTo("moonshine-tiny");
        assertThat(first.get("backend")).isEqualTo("CPU");
        assertThat((Double) first.get("audio_seconds")).isBetween(1.0, 3.0);
        assertThat((Double) first.get("realtime_factor")).isPositive();
        assertThat(((Map<?, ?>) docs.get(1)).get("text"))
                .isEqualTo("Eight of spades, four of cloves, seven of hearts.");

        Path srt = dir.resolve("cards.srt");
        VadTaskTest.Run subtitles = VadTaskTest.run(
                "--task",
                "asr",
                "--audio",
                CARDS.resolve("005.wav").toString(),
                "--segments-out",
                srt.toString(),
                "--threads",
                "1");
        assertThat(subtitles.exit()).as(subtitles.err()).isZero();
        // 50 characters: one cue of two balanced lines, a subtitle line being at most 42
        assertThat(Files.readString(srt))
                .startsWith("1\n00:00:0")
                .contains(" --> ", "Eight of spades, four of\ncloves, seven of hearts.");
    }

    @Test
    void aCheckpointFolderLoadsThroughModelPathAndOtherFoldersAreRefusedSayingWhy(@TempDir Path dir) throws Exception {
        Path checkpoint = Path.of(
                "../models/src/test/resources/moonshine/hf/tiny-layout"); // transformers' layout, random weights
        VadTaskTest.Run r = VadTaskTest.run(
                "--task",
                "asr",
                "--model",
                checkpoint.toString(),
                "--audio",
                CARDS.resolve("001.wav").toString(),
                "--json",
                "--threads",
                "1");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(((Map<?, ?>) AsrTaskTest.json(r.out())).get("model").toString())
                .contains("moonshine transformers", "tiny-layout");

        Files.writeString(dir.resolve("notes.txt"), "not a model");
        VadTaskTest.Run bad = VadTaskTest.run(
                "--task",
                "asr",
                "--model",
                dir.toString(),
                "--audio",
                CARDS.resolve("001.wav").toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err())
                .contains(
                        "holds neither encoder_model.onnx + decoder_model_merged.onnx",
                        "config.json + model.safetensors");
    }
}
