package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --segments-out in every format (by extension and by --format), --speech-out, and output paths checked before the run. */
class VadOutputsTest {
    private static final Path EXAMPLE = Path.of("../docs/examples/speech.wav");

    private static List<SpeechSegment> expected() throws Exception {
        AudioClip clip = WavReader.read(EXAMPLE);
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(1).build();
                VoiceActivityDetector vad = Models.load(e, "silero_vad", VoiceActivityDetector.class)) {
            return vad.segments(clip.samples(), clip.sampleRate(), VadOptions.DEFAULTS);
        }
    }

    @Test
    void everyFormatByExtensionAndByName(@TempDir Path dir) throws Exception {
        List<SpeechSegment> segs = expected();
        assertThat(segs).hasSizeGreaterThanOrEqualTo(2);
        for (String ext : List.of("srt", "vtt", "rttm", "csv", "txt", "json")) {
            Path f = dir.resolve("segments." + ext);
            VadTaskTest.Run r = VadTaskTest.run(
                    "--task", "vad", "--audio", EXAMPLE.toString(), "--threads", "1", "--segments-out", f.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            String text = Files.readString(f);
            SpeechSegment first = segs.getFirst();
            switch (ext) {
                case "srt" ->
                    assertThat(text)
                            .startsWith("1\n" + srt(first.startSeconds(), ',') + " --> " + srt(first.endSeconds(), ',')
                                    + "\nspeech\n\n");
                case "vtt" -> assertThat(text).startsWith("WEBVTT\n\n" + srt(first.startSeconds(), '.') + " --> ");
                case "rttm" ->
                    assertThat(text.lines().toList())
                            .hasSize(segs.size())
                            .first()
                            .asString()
                            .isEqualTo(String.format(
                                    Locale.ROOT,
                                    "SPEAKER speech 1 %.3f %.3f <NA> <NA> speech <NA> <NA>",
                                    first.startSeconds(),
                                    first.endSeconds() - first.startSeconds()));
                case "csv" ->
                    assertThat(text.split("\r\n"))
                            .hasSize(segs.size() + 1)
                            .contains(String.format(
                                    Locale.ROOT, "%.3f,%.3f,speech,", first.startSeconds(), first.endSeconds()));
                case "txt" ->
                    assertThat(text.lines().toList())
                            .hasSize(segs.size())
                            .first()
                            .asString()
                            .isEqualTo(String.format(
                                    Locale.ROOT, "%.6f\t%.6f\tspeech", first.startSeconds(), first.endSeconds()));
                default -> assertThat(text).contains("\"mode\":\"offline\"", "\"start_sample\":" + first.startSample());
            }
        }
        Path named = dir.resolve("segments.out");
        VadTaskTest.Run r = VadTaskTest.run(
                "--task",
                "vad",
                "--audio",
                EXAMPLE.toString(),
                "--threads",
                "1",
                "--segments-out",
                named.toString(),
                "--format",
                "vtt");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(named)).isEqualTo(Files.readString(dir.resolve("segments.vtt")));
    }

    private static String srt(double seconds, char sep) {
        long ms = Math.round(seconds * 1000);
        return String.format(
                Locale.ROOT, "%02d:%02d:%02d%c%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, sep, ms % 1000);
    }

    @Test
    void speechOutHoldsTheSegmentsSamplesJoined(@TempDir Path dir) throws Exception {
        List<SpeechSegment> segs = expected();
        Path wav = dir.resolve("speech.wav");
        VadTaskTest.Run r = VadTaskTest.run(
                "--task", "vad", "--audio", EXAMPLE.toString(), "--threads", "1", "--speech-out", wav.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        AudioClip original = WavReader.read(EXAMPLE), speech = WavReader.read(wav);
        assertThat(speech.sampleRate()).isEqualTo(original.sampleRate());
        int k = 0;
        for (SpeechSegment s : segs) {
            for (long i = s.startSample(); i < s.endSample(); i++)
                assertThat(speech.samples()[k++]).isEqualTo(original.samples()[(int) i]);
        }
        assertThat(k).isEqualTo(speech.samples().length);
    }

    @Test
    void badOutputPathsFailBeforeTheRun(@TempDir Path dir) {
        VadTaskTest.Run unknown = VadTaskTest.run(
                "--task",
                "vad",
                "--audio",
                EXAMPLE.toString(),
                "--segments-out",
                dir.resolve("x.out").toString());
        assertThat(unknown.exit()).isNotZero();
        assertThat(unknown.err())
                .contains("cannot tell the segment format", "--format")
                .doesNotContain("speech segment");
        VadTaskTest.Run badName = VadTaskTest.run(
                "--task",
                "vad",
                "--audio",
                EXAMPLE.toString(),
                "--segments-out",
                dir.resolve("x.json").toString(),
                "--format",
                "ass");
        assertThat(badName.err()).contains("unknown segment format 'ass'");
        VadTaskTest.Run noFolder = VadTaskTest.run(
                "--task",
                "vad",
                "--audio",
                EXAMPLE.toString(),
                "--segments-out",
                dir.resolve("missing/x.srt").toString());
        assertThat(noFolder.exit()).isNotZero();
        assertThat(noFolder.err()).contains("does not exist").doesNotContain("speech segment");
        VadTaskTest.Run speechNoFolder = VadTaskTest.run(
                "--task",
                "vad",
                "--audio",
                EXAMPLE.toString(),
                "--speech-out",
                dir.resolve("missing/s.wav").toString());
        assertThat(speechNoFolder.err()).contains("does not exist").doesNotContain("speech segment");
    }
}
