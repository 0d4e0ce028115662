package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.MiniJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --task tts} and {@code voices} with the real default family (Kokoro-82M, pulled from npm on first use, and
 * Debian's espeak-ng): what a user types, end to end in one process. Each run loads the model; synthesis on a shared
 * 2-core machine takes tens of seconds, so the text is short and said once. The errors a user can make are all in
 * TtsTaskTest (against a fake model) and KokoroBadInputTest (the library).
 */
class KokoroCliTest {
    @Test
    void streamingSaysTheTextAndReportsTheTimeToFirstAudio(@TempDir Path dir) throws Exception {
        Path wav = dir.resolve("hi.wav");
        CliRun r = CliRun.run(
                "--task",
                "tts",
                "--text",
                "Hello there.",
                "--out",
                wav.toString(),
                "--mode",
                "streaming",
                "--threads",
                "2");
        assertThat(r.exit()).as(r.toString()).isZero();
        AudioClip clip = WavReader.read(wav);
        assertThat(clip.sampleRate()).isEqualTo(24000);
        assertThat(clip.samples().length / 24000.0).isBetween(0.4, 3.0);
        assertThat(r.err())
                .containsPattern(
                        "audioengine: \\S*hi\\.wav: 1 piece, \\d+\\.\\d\\d s of audio at 24000 Hz in \\d+ ms \\(kokoro-82m on CPU,"
                                + " voice af_heart, \\d+\\.\\dx real time, first audio after \\d+ ms\\)");
    }

    @Test
    void textWithNothingToSayIsNoTraceButWhatIsWrong(@TempDir Path dir) {
        CliRun r = CliRun.run(
                "--task",
                "tts",
                "--text",
                "!!! ...",
                "--out",
                dir.resolve("x.wav").toString(),
                "--voice",
                "bf_emma");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err())
                .contains("error: --text: the text has nothing to say: no speakable characters")
                .doesNotContain("\tat ");
    }

    @Test
    @SuppressWarnings("unchecked")
    void voicesListsEveryVoiceWithItsLanguageAndGender() {
        CliRun r = CliRun.run("voices", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Map<String, Object>> voices =
                (List<Map<String, Object>>) MiniJson.parse(r.out().strip());
        assertThat(voices)
                .hasSize(54)
                .contains(
                        Map.of("name", "af_heart", "language", "en-US", "gender", "female"),
                        Map.of("name", "bm_george", "language", "en-GB", "gender", "male"),
                        Map.of("name", "ff_siwis", "language", "fr-FR", "gender", "female"),
                        Map.of("name", "pm_alex", "language", "pt-BR", "gender", "male"),
                        Map.of("name", "jf_alpha", "language", "ja", "gender", "female"),
                        Map.of("name", "zm_yunxi", "language", "zh", "gender", "male"));
        assertThat(voices).allSatisfy(v -> assertThat(v.get("gender")).isIn("female", "male"));
    }
}
