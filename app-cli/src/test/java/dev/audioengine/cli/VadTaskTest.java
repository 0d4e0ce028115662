package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
        Run r = run(
                "--task",
                "vad",
                "--audio",
                EXAMPLE.toString(),
                "--backend",
                "cpu",
                "--threads",
                "1",
                "--segments-out",
                segs.toString(),
                "--probabilities-out",
                probs.toString());
        assertThat(r.exit()).as(r.err()).isZero();

        AudioClip clip = WavReader.read(EXAMPLE);
        List<SpeechSegment> expected;
        float[] p;
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(1).build();
                VoiceActivityDetector vad = Models.load(e, "silero_vad", VoiceActivityDetector.class)) {
            p = vad.probabilities(clip.samples(), clip.sampleRate());
            expected = vad.segments(clip.samples(), clip.sampleRate(), VadOptions.DEFAULTS);
        }
        assertThat(expected).as("the example has speech in it").hasSizeGreaterThanOrEqualTo(2);
        StringBuilder lines = new StringBuilder();
        for (SpeechSegment s : expected)
            lines.append(String.format(Locale.ROOT, "%.3f - %.3f%n", s.startSeconds(), s.endSeconds()));
        assertThat(r.out()).isEqualTo(lines.toString());

        List<String> probLines = Files.readAllLines(probs);
        assertThat(probLines).hasSize(p.length);
        for (int i = 0; i < p.length; i++) {
            // kernels may sum in a different order from run to run (vector heads follow buffer alignment)
            assertThat(probLines.get(i)).matches("[01]\\.\\d{6}");
            assertThat(Double.parseDouble(probLines.get(i)))
                    .isCloseTo(p[i], org.assertj.core.api.Assertions.within(2e-6));
        }

        String json = Files.readString(segs);
        assertThat(json)
                .startsWith("{\"audio\":\"" + EXAMPLE + "\",\"sample_rate\":16000,\"model\":\"silero_vad v6 (")
                .contains(
                        "\"threshold\":0.5,\"neg_threshold\":0.35",
                        "\"min_speech_ms\":250",
                        "\"min_silence_ms\":100",
                        "\"speech_pad_ms\":30",
                        "\"max_speech_s\":null");
        for (SpeechSegment s : expected)
            assertThat(json).contains("\"start_sample\":" + s.startSample() + ",\"end_sample\":" + s.endSample());
    }

    @Test
    void streamingPrintsJsonLinesAsSegmentsClose() {
        Run r = run("--task", "vad", "--audio", EXAMPLE.toString(), "--mode", "streaming", "--json", "--threads", "1");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).isNotEmpty().allMatch(l -> l.matches("\\{\"start\":\\d+\\.\\d{3},\"end\":\\d+\\.\\d{3}}"));
    }

    @Test
    void offlineJsonIsOneDocumentPerFileAndAnArrayForSeveral(@TempDir Path dir) throws Exception {
        Run one = run("--task", "vad", "--audio", EXAMPLE.toString(), "--json", "--threads", "1");
        assertThat(one.exit()).as(one.err()).isZero();
        assertThat(one.out().strip())
                .startsWith("{\"audio\":\"" + EXAMPLE + "\",\"model\":\"silero_vad v6")
                .contains(
                        "\"backend\":\"CPU\"",
                        "\"audio_seconds\":",
                        "\"realtime_factor\":",
                        "\"segments\":[{\"start\":")
                .endsWith("]}");
        Path copy = Files.copy(EXAMPLE, dir.resolve("b.wav"));
        Run two = run("--task", "vad", "--audio", EXAMPLE.toString(), copy.toString(), "--json", "--threads", "1");
        assertThat(two.exit()).as(two.err()).isZero();
        String body = one.out().strip().substring(("{\"audio\":\"" + EXAMPLE + "\"").length());
        String segments = body.substring(body.indexOf("\"segments\""));
        assertThat(two.out().strip())
                .startsWith("[{\"audio\":\"" + EXAMPLE + "\"")
                .contains("{\"audio\":\"" + copy + "\"")
                .endsWith("]");
        assertThat(two.out().split(java.util.regex.Pattern.quote(segments), -1))
                .as("both files give the same segments")
                .hasSize(3);
    }

    @Test
    void severalInputsAFolderAndAGlobRunInOneProcessWithOneLinePrefixPerFile(@TempDir Path dir) throws Exception {
        Files.copy(EXAMPLE, dir.resolve("a.wav"));
        Files.copy(EXAMPLE, dir.resolve("b.wav"));
        Files.writeString(dir.resolve("notes.txt"), "not audio");
        Run folder = run("--task", "vad", "--audio", dir.toString(), "--threads", "1");
        assertThat(folder.exit()).as(folder.err()).isZero();
        List<String> lines = folder.out().lines().toList();
        assertThat(lines)
                .isNotEmpty()
                .allMatch(l -> l.startsWith(dir.resolve("a.wav") + ": ") || l.startsWith(dir.resolve("b.wav") + ": "));
        assertThat(lines.stream()
                        .filter(l -> l.startsWith(dir.resolve("a.wav").toString()))
                        .count())
                .isEqualTo(lines.size() / 2);
        Run glob = run("--task", "vad", "--audio", dir + "/*.wav", "--threads", "1");
        assertThat(glob.out()).isEqualTo(folder.out());
        Path outDir = Files.createDirectories(dir.resolve("out"));
        Run withFiles =
                run("--task", "vad", "--audio", dir + "/*.wav", "--segments-out", outDir.toString(), "--threads", "1");
        assertThat(withFiles.exit()).as(withFiles.err()).isZero();
        assertThat(outDir.resolve("a.wav.segments.json")).exists();
        assertThat(outDir.resolve("b.wav.segments.json")).exists();
    }

    @Test
    void badInputsFailWithMessagesThatSayWhatToDo(@TempDir Path dir) throws Exception {
        Run missing = run("--task", "vad", "--audio", dir.resolve("nope.wav").toString());
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("nope.wav: no such audio file");

        Run folder = run("--task", "vad", "--audio", dir.toString());
        assertThat(folder.exit()).isEqualTo(1);
        assertThat(folder.err()).contains("is a folder with no audio files");

        Path notWav = Files.writeString(dir.resolve("text.wav"), "hello");
        assertThat(run("--task", "vad", "--audio", notWav.toString()).err())
                .contains("text.wav")
                .contains("not a WAV");

        Path fakeModel = Files.writeString(dir.resolve("model.onnx"), "not a model");
        Run wrongModel = run("--task", "vad", "--audio", EXAMPLE.toString(), "--model", fakeModel.toString());
        assertThat(wrongModel.exit()).isEqualTo(1);
        assertThat(wrongModel.err()).contains("model.onnx").contains("silero_vad");

        Run noModel = run(
                "--task",
                "vad",
                "--audio",
                EXAMPLE.toString(),
                "--model",
                dir.resolve("gone.onnx").toString());
        assertThat(noModel.exit()).isEqualTo(1);
        assertThat(noModel.err()).contains("gone.onnx: no such model").contains("silero_vad_v5");

        Run badOut = run("--task", "vad", "--audio", EXAMPLE.toString(), "--segments-out", "/nonexistent/x.json");
        assertThat(badOut.exit()).isEqualTo(1);
        assertThat(badOut.err()).contains("/nonexistent/x.json: the folder for --segments-out does not exist");
        assertThat(badOut.err())
                .as("checked before the run, so no summary line")
                .doesNotContain("speech segment");
    }

    /** --speech-out and --probabilities-out naming the input would replace the recording: refused, exit 2, the input intact. */
    @Test
    void anOutputOverTheInputIsRefused(@TempDir Path dir) throws Exception {
        Path wav = Files.copy(EXAMPLE, dir.resolve("x.wav"));
        byte[] before = Files.readAllBytes(wav);
        for (String option : List.of("--speech-out", "--probabilities-out", "--segments-out")) {
            List<String> args = new java.util.ArrayList<>(
                    List.of("--task", "vad", "--audio", wav.toString(), option, wav.toString(), "--threads", "1"));
            if (option.equals("--segments-out"))
                args.addAll(List.of("--format", "json")); // .wav says no segment format
            Run r = run(args.toArray(String[]::new));
            assertThat(r.exit()).as(option + ": " + r.err()).isEqualTo(2);
            assertThat(r.err())
                    .contains("error: " + option + " " + wav + " is the input " + wav + "; name another file");
            assertThat(Files.readAllBytes(wav)).isEqualTo(before);
        }
        Run both = run(
                "--task",
                "vad",
                "--audio",
                wav.toString(),
                "--speech-out",
                dir.resolve("o.wav").toString(),
                "--probabilities-out",
                dir.resolve("o.wav").toString(),
                "--threads",
                "1");
        assertThat(both.exit()).as(both.err()).isEqualTo(2);
        assertThat(both.err()).contains("--speech-out and --probabilities-out both name " + dir.resolve("o.wav"));
    }

    /** A file that cannot be decoded is reported and skipped; the others are detected; exit 1 at the end. */
    @Test
    void aBadFileDoesNotStopTheOthers(@TempDir Path dir) throws Exception {
        Path a = Files.copy(EXAMPLE, dir.resolve("a.wav")), c = Files.copy(EXAMPLE, dir.resolve("c.wav"));
        Path b = Files.writeString(dir.resolve("b.wav"), "not audio");
        Run r = run("--task", "vad", "--audio", dir.toString(), "--threads", "1");
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out().lines().filter(l -> l.startsWith(a + ": ")).count())
                .isPositive()
                .isEqualTo(r.out().lines().filter(l -> l.startsWith(c + ": ")).count());
        assertThat(r.err()).contains("error: " + b + ": not a WAV file").contains("error: 1 of 3 inputs failed: " + b);
        Run json = run("--task", "vad", "--audio", dir.toString(), "--threads", "1", "--json");
        assertThat(json.exit()).isEqualTo(1);
        assertThat(json.out()).contains("{\"audio\":\"" + b + "\",\"error\":\"" + b + ": not a WAV file");
    }

    /** Progress (percent, audio seconds, real-time factor) is drawn only for a person at a terminal, and --quiet silences it. */
    @Test
    void progressIsDrawnOnATerminalOnlyAndQuietSilencesIt() {
        String before = System.getProperty("audioengine.stderr.terminal");
        try {
            System.setProperty("audioengine.stderr.terminal", "true");
            Run shown = run("--task", "vad", "--audio", EXAMPLE.toString(), "--threads", "1");
            assertThat(shown.exit()).as(shown.err()).isZero();
            assertThat(shown.err())
                    .containsPattern("\r +\\d+% speech\\.wav: \\d+\\.\\d s of audio, \\d+x real time\u001b\\[K");
            Run quiet = run("--task", "vad", "--audio", EXAMPLE.toString(), "--threads", "1", "--quiet");
            assertThat(quiet.exit()).isZero();
            assertThat(quiet.err()).isEmpty();
            assertThat(quiet.out()).isEqualTo(shown.out());
            System.setProperty("audioengine.stderr.terminal", "false");
            assertThat(run("--task", "vad", "--audio", EXAMPLE.toString(), "--threads", "1")
                            .err())
                    .doesNotContain("real time\u001b[K");
        } finally {
            if (before == null) System.clearProperty("audioengine.stderr.terminal");
            else System.setProperty("audioengine.stderr.terminal", before);
        }
    }

    /** Issue 16, defect 12: --backend best says what it picked; and --audio - reads standard input. */
    @Test
    void bestSaysWhatItPickedAndStandardInputIsAnInput() throws Exception {
        Run file = run("--task", "vad", "--audio", EXAMPLE.toString(), "--backend", "best", "--threads", "1");
        assertThat(file.exit()).as(file.err()).isZero();
        assertThat(file.err()).contains("audioengine: --backend best: picked CPU");
        java.io.InputStream old = System.in;
        try (java.io.InputStream in = Files.newInputStream(EXAMPLE)) {
            System.setIn(in);
            Run stdin = run("--task", "vad", "--audio", "-", "--threads", "1");
            assertThat(stdin.exit()).as(stdin.err()).isZero();
            assertThat(stdin.out())
                    .isEqualTo(run("--task", "vad", "--audio", EXAMPLE.toString(), "--threads", "1")
                            .out());
        } finally {
            System.setIn(old);
        }
    }

    /** Issue 16, defect 9: usage errors exit 2, requests that cannot be served exit 1. */
    @Test
    void usageErrorsExitTwoAndSayWhy() {
        record Case(String why, int exit, String message, String... args) {}
        String wav = EXAMPLE.toString();
        for (Case c : List.of(
                new Case("no --audio", 2, "--task vad needs --audio FILE", "--task", "vad"),
                new Case(
                        "threshold",
                        2,
                        "threshold must be in (0, 1)",
                        "--task",
                        "vad",
                        "--audio",
                        wav,
                        "--threshold",
                        "1.5"),
                new Case(
                        "negative ms",
                        2,
                        "must not be negative",
                        "--task",
                        "vad",
                        "--audio",
                        wav,
                        "--min-speech-ms",
                        "-5"),
                new Case("mode", 2, "unknown --mode 'live'", "--task", "vad", "--audio", wav, "--mode", "live"),
                new Case("task", 2, "unknown task 'dance'; tasks: vad, asr, tts", "--task", "dance", "--audio", wav),
                new Case(
                        "family",
                        2,
                        "unknown model family 'webrtc'; installed: basic-pitch, kokoro, moonshine, openwakeword, silero_vad, whisper",
                        "--task",
                        "vad",
                        "--family",
                        "webrtc",
                        "--audio",
                        wav),
                new Case("no task", 2, "--audio needs --task", "--audio", wav),
                new Case(
                        "pull",
                        2,
                        "unknown model foo; models: basic-pitch, kokoro-82m, moonshine-tiny, moonshine-base, openwakeword, silero_vad, silero_vad_v5",
                        "models",
                        "pull",
                        "foo"),
                new Case(
                        "option",
                        2,
                        "unknown option foo for the CPU backend; its options: cpu.op-threads, cpu.weight-cache-mb",
                        "--task",
                        "vad",
                        "--audio",
                        wav,
                        "--option",
                        "foo=bar"),
                new Case(
                        "option value",
                        2,
                        "option cpu.weight-cache-mb must be auto or a number of megabytes (0 or more), got 'lots'",
                        "--task",
                        "vad",
                        "--audio",
                        wav,
                        "--option",
                        "cpu.weight-cache-mb=lots"),
                new Case(
                        "backend all",
                        2,
                        "--backend all is only for 'check' and 'bench ops'",
                        "--task",
                        "vad",
                        "--audio",
                        wav,
                        "--backend",
                        "all"),
                new Case(
                        "family for another task",
                        2,
                        "model family kokoro serves tts, not --task asr",
                        "--task",
                        "asr",
                        "--family",
                        "kokoro",
                        "--audio",
                        wav))) {
            Run r = run(c.args());
            assertThat(r.exit()).as(c.why() + ": " + r.err()).isEqualTo(c.exit());
            assertThat(r.err()).as(c.why()).contains(c.message());
        }
    }
}
