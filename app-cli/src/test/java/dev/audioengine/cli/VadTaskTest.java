package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.models.ModelStore;
import dev.audioengine.models.silero.SileroModelFiles;
import dev.audioengine.models.silero.SileroVad;
import dev.audioengine.models.silero.SpeechSegment;
import dev.audioengine.models.silero.VadOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The --task vad command against the library on the shipped example WAV, and its error paths. */
class VadTaskTest {
    private static final Path EXAMPLE = Path.of("../docs/examples/speech.wav");

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cmd = Main.commandLine(new AudioEngineCommand());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void offlinePrintsAndWritesTheLibrarysSegmentsAndProbabilities(@TempDir Path dir) throws Exception {
        Path segs = dir.resolve("segments.json"), probs = dir.resolve("probs.txt");
        Run r = run("--task", "vad", "--audio", EXAMPLE.toString(), "--backend", "cpu", "--threads", "1",
                "--segments-out", segs.toString(), "--probabilities-out", probs.toString());
        assertThat(r.exit()).as(r.err()).isZero();

        AudioClip clip = WavReader.read(EXAMPLE);
        Path model = SileroModelFiles.resolve(null, ModelStore.userCache(), m -> {});
        List<SpeechSegment> expected;
        float[] p;
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(1).build(); SileroVad vad = SileroVad.load(e, model)) {
            p = vad.probabilities(clip.samples(), clip.sampleRate());
            expected = vad.segments(clip.samples(), clip.sampleRate(), VadOptions.DEFAULTS);
        }
        assertThat(expected).as("the example has speech in it").hasSizeGreaterThanOrEqualTo(2);
        StringBuilder lines = new StringBuilder();
        for (SpeechSegment s : expected) lines.append(String.format(Locale.ROOT, "%.3f - %.3f%n", s.startSeconds(), s.endSeconds()));
        assertThat(r.out()).isEqualTo(lines.toString());

        List<String> probLines = Files.readAllLines(probs);
        assertThat(probLines).hasSize(p.length);
        for (int i = 0; i < p.length; i++) {
            // kernels may sum in a different order from run to run (vector heads follow buffer alignment)
            assertThat(probLines.get(i)).matches("[01]\\.\\d{6}");
            assertThat(Double.parseDouble(probLines.get(i))).isCloseTo(p[i], org.assertj.core.api.Assertions.within(2e-6));
        }

        String json = Files.readString(segs);
        assertThat(json).startsWith("{\"audio\":\"" + EXAMPLE + "\",\"sample_rate\":16000,\"model\":\"silero_vad_v6\"")
                .contains("\"threshold\":0.5,\"neg_threshold\":0.35", "\"min_speech_ms\":250", "\"min_silence_ms\":100",
                        "\"speech_pad_ms\":30", "\"max_speech_s\":null");
        for (SpeechSegment s : expected) assertThat(json).contains("\"start_sample\":" + s.startSample() + ",\"end_sample\":" + s.endSample());
    }

    @Test
    void streamingPrintsJsonLinesAsSegmentsClose() {
        Run r = run("--task", "vad", "--audio", EXAMPLE.toString(), "--mode", "streaming", "--json", "--threads", "1");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).isNotEmpty().allMatch(l -> l.matches("\\{\"start\":\\d+\\.\\d{3},\"end\":\\d+\\.\\d{3}}"));
    }

    @Test
    void badInputsFailWithMessagesThatSayWhatToDo(@TempDir Path dir) throws Exception {
        Run missing = run("--task", "vad", "--audio", dir.resolve("nope.wav").toString());
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("nope.wav");

        Path notWav = Files.writeString(dir.resolve("text.wav"), "hello");
        assertThat(run("--task", "vad", "--audio", notWav.toString()).err()).contains("text.wav").contains("not a WAV");

        Path fakeModel = Files.writeString(dir.resolve("model.onnx"), "not a model");
        Run wrongModel = run("--task", "vad", "--audio", EXAMPLE.toString(), "--model", fakeModel.toString());
        assertThat(wrongModel.exit()).isEqualTo(1);
        assertThat(wrongModel.err()).contains("is not Silero VAD v5 or v6").contains("models pull silero_vad");

        Run noModel = run("--task", "vad", "--audio", EXAMPLE.toString(), "--model", dir.resolve("gone.onnx").toString());
        assertThat(noModel.err()).contains("model file not found");

        assertThat(run("--task", "asr", "--audio", EXAMPLE.toString()).err()).contains("unknown --task 'asr'");
        assertThat(run("--task", "vad").err()).contains("--task vad needs --audio");
        assertThat(run("--task", "vad", "--family", "webrtc", "--audio", EXAMPLE.toString()).err())
                .contains("unknown --family 'webrtc' for --task vad; families: silero_vad");
        assertThat(run("--task", "vad", "--audio", EXAMPLE.toString(), "--threshold", "1.5").err()).contains("threshold must be in (0, 1)");
    }
}
