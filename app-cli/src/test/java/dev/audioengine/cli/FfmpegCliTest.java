package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.cli.testkit.CliRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --task asr} on what phones and browsers record (M4A, WebM/Opus) and on a video with two soundtracks, made by
 * Debian's ffmpeg from the README's example recording: the real moonshine-tiny (the model cache, pulled on first
 * use), the same transcript as from the WAV. Skipped where the ffmpeg command is missing (its package brings the
 * libraries the engine loads; CI installs both: scripts/test-packages).
 */
class FfmpegCliTest {
    @TempDir
    static Path dir;

    static final Path WAV = Path.of("../docs/examples/dashwood.wav");
    static final String TRANSCRIPT = "And Mr. John Dashwood had then leisure to consider how much there might be"
            + " prudently in his power to do for them.";

    static Path m4a, webm, video;

    @BeforeAll
    static void makeFiles() throws Exception {
        assumeTrue(ffmpeg("-version"), "the ffmpeg command is not installed: apt-get install ffmpeg");
        m4a = dir.resolve("memo.m4a");
        webm = dir.resolve("upload.webm");
        video = dir.resolve("talk.mkv");
        assertThat(ffmpeg("-i", WAV.toString(), "-c:a", "aac", m4a.toString())).isTrue();
        assertThat(ffmpeg("-i", WAV.toString(), "-c:a", "libopus", webm.toString()))
                .isTrue();
        // a video whose first soundtrack is a tone and whose second is the speech
        assertThat(ffmpeg(
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc=duration=7.1:size=64x48:rate=5",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=440:duration=7.1:sample_rate=16000",
                        "-i",
                        WAV.toString(),
                        "-map",
                        "0:v",
                        "-map",
                        "1:a",
                        "-map",
                        "2:a",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "ultrafast",
                        "-c:a",
                        "libopus",
                        video.toString()))
                .isTrue();
    }

    static boolean ffmpeg(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (java.io.IOException missing) {
            return false;
        }
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    static CliRun asr(String... more) {
        List<String> args = new ArrayList<>(List.of("--task", "asr", "--threads", "1"));
        args.addAll(List.of(more));
        return CliRun.run(args.toArray(String[]::new));
    }

    @Test
    void anM4aAndAWebmGiveTheWavsTranscript() {
        CliRun wav = asr("--audio", WAV.toString());
        assertThat(wav.exit()).as(wav.toString()).isZero();
        assertThat(wav.out().strip()).isEqualTo(TRANSCRIPT);
        CliRun both = asr("--audio", m4a.toString(), webm.toString());
        assertThat(both.exit()).as(both.toString()).isZero();
        assertThat(both.out()).isEqualTo(m4a + ": " + TRANSCRIPT + "\n" + webm + ": " + TRANSCRIPT + "\n");
        // the WebM is Opus at 48 kHz: resampled to the model's rate, and said so
        assertThat(both.err()).contains("resampling " + webm + " from 48000 Hz to 16000 Hz");
    }

    @Test
    void audioStreamPicksTheSoundtrackAndABadOneSaysHowManyThereAre() {
        CliRun speech = asr("--audio", video.toString(), "--audio-stream", "1");
        assertThat(speech.exit()).as(speech.toString()).isZero();
        assertThat(speech.out().strip()).isEqualTo(TRANSCRIPT);

        CliRun tone = asr("--audio", video.toString(), "--audio-stream", "0");
        assertThat(tone.exit()).as(tone.toString()).isZero();
        assertThat(tone.out().strip()).isNotEqualTo(TRANSCRIPT);

        CliRun none = asr("--audio", video.toString(), "--audio-stream", "2");
        assertThat(none.exit()).as(none.toString()).isEqualTo(1);
        assertThat(none.err())
                .contains("talk.mkv: there is no audio stream 2: it has 2 audio streams (numbers 0 to 1)");

        CliRun negative = asr("--audio", video.toString(), "--audio-stream", "-1");
        assertThat(negative.exit()).as(negative.toString()).isEqualTo(2);
        assertThat(negative.err()).contains("--audio-stream counts audio streams from 0 (the first), not -1");

        CliRun tts = CliRun.run("--task", "tts", "--text", "Hi.", "--audio-stream", "1");
        assertThat(tts.exit()).as(tts.toString()).isEqualTo(2);
        assertThat(tts.err()).contains("--audio-stream is an option of --task vad and --task asr");
    }
}
