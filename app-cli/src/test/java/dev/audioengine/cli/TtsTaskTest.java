package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.FakeTtsFamily;
import dev.audioengine.model.task.SynthesisOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The --task tts front end against FakeTtsFamily (a sine of 10 ms per character per sentence, 24 kHz). */
class TtsTaskTest {
    @TempDir
    Path dir;

    private final FakeTtsFamily family = new FakeTtsFamily();
    private Path model;

    private static final String TEXT = "Hello world. How are you?";

    @BeforeEach
    void files() throws Exception {
        model = FakeTtsFamily.modelFile(dir);
    }

    /** A run with its binary standard output (the WAV of --out -) apart from the text one. */
    record Tts(int exit, byte[] bytes, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + ", " + bytes.length + " bytes\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Tts run(FakeTtsFamily family, InputStream stdin, OutputStream stdout, String... args) {
        AudioEngineCommand top = new AudioEngineCommand(BackendRegistry::load, family::registry).streams(stdin, stdout);
        CommandLine cmd = Main.commandLine(top);
        StringWriter out = new StringWriter(), err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new Tts(
                exit,
                stdout instanceof ByteArrayOutputStream b ? b.toByteArray() : new byte[0],
                out.toString(),
                err.toString());
    }

    private Tts tts(String... more) {
        List<String> args = new ArrayList<>(List.of("--task", "tts", "--model", model.toString(), "--threads", "1"));
        args.addAll(List.of(more));
        return run(
                family,
                new ByteArrayInputStream(new byte[0]),
                new ByteArrayOutputStream(),
                args.toArray(String[]::new));
    }

    /** The audio the model makes for {@code pieces}, joined. */
    private static float[] expected(SynthesisOptions options, String... pieces) {
        List<float[]> all = new ArrayList<>();
        for (String p : pieces) all.add(FakeTtsFamily.audio(p, options));
        float[] x = new float[all.stream().mapToInt(a -> a.length).sum()];
        int at = 0;
        for (float[] a : all) {
            System.arraycopy(a, 0, x, at, a.length);
            at += a.length;
        }
        return x;
    }

    private static void assertSamples(AudioClip clip, float[] expected) {
        assertThat(clip.sampleRate()).isEqualTo(FakeTtsFamily.RATE);
        assertThat(clip.samples()).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(clip.samples()[i])
                    .as("sample %d", i)
                    .isCloseTo(expected[i], within(1f / 16384)); // a step of 16 bits
        }
    }

    @Test
    void outFileIsA16BitWavOfEveryPieceWithASummaryOnStderr() throws Exception {
        Path wav = dir.resolve("hello.wav");
        Tts r = tts("--text", TEXT, "--out", wav.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.bytes()).isEmpty();
        assertSamples(WavReader.read(wav), expected(SynthesisOptions.DEFAULTS, "Hello world.", "How are you?"));
        ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(wav)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(h.getShort(20)).as("PCM").isEqualTo((short) 1);
        assertThat(h.getShort(34)).as("bits").isEqualTo((short) 16);
        assertThat(r.err())
                .contains("audioengine: " + wav + ": 2 pieces, 0.24 s of audio at 24000 Hz in ")
                .contains("(fake-tts (sines) on CPU, voice af_heart, ")
                .contains("first audio after ");
        assertThat(family.lastOptions).isEqualTo(SynthesisOptions.DEFAULTS);
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .as("no partial file left")
                    .containsExactlyInAnyOrder("fake.tts", "hello.wav");
        }

        Tts quiet = tts("--text", TEXT, "--out", wav.toString(), "--quiet");
        assertThat(quiet.err()).isEmpty();
    }

    @Test
    void outDashWritesTheWavAloneToStdoutInBothModes() throws Exception {
        Path ref = dir.resolve("ref.wav");
        assertThat(tts("--text", TEXT, "--out", ref.toString()).exit()).isZero();
        Tts offline = tts("--text", TEXT, "--out", "-");
        assertThat(offline.exit()).as(offline.toString()).isZero();
        assertThat(offline.out()).isEmpty();
        assertThat(offline.bytes())
                .as("offline: the sizes are known, the bytes are the file's")
                .isEqualTo(Files.readAllBytes(ref));
        assertThat(offline.err()).contains("audioengine: standard output: 2 pieces");

        Tts streaming = tts("--text", TEXT, "--out", "-", "--mode", "streaming");
        assertThat(streaming.exit()).as(streaming.toString()).isZero();
        assertThat(streaming.out()).isEmpty();
        ByteBuffer h = ByteBuffer.wrap(streaming.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(h.getInt(40)).as("streaming: data size unknown").isEqualTo(-1);
        assertThat(WavReader.decode(streaming.bytes(), "stdout").samples())
                .isEqualTo(WavReader.read(ref).samples());
    }

    @Test
    void streamingWritesTheSameFileAsOffline() throws Exception {
        Path offline = dir.resolve("offline.wav"), streaming = dir.resolve("streaming.wav");
        String text = "One. Two, three!\n\nFour five six seven eight nine ten eleven twelve?";
        assertThat(tts("--text", text, "--out", offline.toString(), "--voice", "bm_george", "--speed", "1.5")
                        .exit())
                .isZero();
        Tts r = tts(
                "--text",
                text,
                "--out",
                streaming.toString(),
                "--voice",
                "bm_george",
                "--speed",
                "1.5",
                "--mode",
                "streaming");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(Files.readAllBytes(streaming)).isEqualTo(Files.readAllBytes(offline));
        assertSamples(
                WavReader.read(streaming),
                expected(
                        new SynthesisOptions("bm_george", 1.5),
                        "One.",
                        "Two, three!",
                        "Four five six seven eight nine ten eleven twelve?"));
        assertThat(r.err()).contains(": 3 pieces, ").contains("voice bm_george").contains("first audio after ");
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonReportsTheRunAndEachPiece() {
        Path wav = dir.resolve("j.wav");
        for (String mode : List.of("offline", "streaming")) {
            Tts r = tts(
                    "--text",
                    TEXT,
                    "--out",
                    wav.toString(),
                    "--json",
                    "--voice",
                    "bm_george",
                    "--speed",
                    "2",
                    "--mode",
                    mode);
            assertThat(r.exit()).as(r.toString()).isZero();
            Map<String, Object> doc =
                    (Map<String, Object>) AsrTaskTest.json(r.out().strip());
            assertThat(doc.keySet())
                    .containsExactly(
                            "out",
                            "voice",
                            "model",
                            "backend",
                            "mode",
                            "sample_rate",
                            "audio_seconds",
                            "seconds",
                            "realtime_factor",
                            "first_audio_ms",
                            "pieces");
            assertThat(doc)
                    .containsEntry("out", wav.toString())
                    .containsEntry("voice", "bm_george")
                    .containsEntry("mode", mode)
                    .containsEntry("model", "fake-tts (sines)")
                    .containsEntry("backend", "CPU")
                    .containsEntry("sample_rate", 24000.0)
                    .containsEntry("audio_seconds", 0.12);
            assertThat((Double) doc.get("realtime_factor")).isPositive();
            assertThat((Double) doc.get("first_audio_ms")).isBetween(0.0, (Double) doc.get("seconds") * 1000 + 0.1);
            assertThat((List<Object>) doc.get("pieces"))
                    .containsExactly(
                            Map.of("text", "Hello world.", "phonemes", "hello world.", "seconds", 0.06),
                            Map.of("text", "How are you?", "phonemes", "how are you?", "seconds", 0.06));
            assertThat(family.lastOptions).isEqualTo(new SynthesisOptions("bm_george", 2));
        }
    }

    /**
     * A 100 kB text streamed from standard input: the first audio goes out when a small part of the text has been read
     * (the CLI hands the model a Reader, not the whole text), and every sentence is said.
     */
    @Test
    void aLongTextStreamsAsItIsRead() {
        StringBuilder book = new StringBuilder();
        for (int i = 0; book.length() < 100_000; i++)
            book.append("This is sentence number ").append(i).append(" of a long book.\n");
        byte[] text = book.toString().getBytes(StandardCharsets.UTF_8);
        AtomicLong read = new AtomicLong(), readAtFirstAudio = new AtomicLong(-1), written = new AtomicLong();
        InputStream stdin = new java.io.FilterInputStream(new ByteArrayInputStream(text)) {
            @Override
            public int read(byte[] b, int off, int len) throws java.io.IOException {
                int n = super.read(b, off, len);
                if (n > 0) read.addAndGet(n);
                return n;
            }
        };
        OutputStream stdout = new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                readAtFirstAudio.compareAndSet(-1, read.get());
                written.addAndGet(len);
            }
        };
        Tts r = run(
                family,
                stdin,
                stdout,
                "--task",
                "tts",
                "--model",
                model.toString(),
                "--text-file",
                "-",
                "--out",
                "-",
                "--mode",
                "streaming");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(readAtFirstAudio.get())
                .as("bytes of text read when the first audio was written")
                .isPositive()
                .isLessThan(text.length / 4);
        long chars = book.toString()
                .lines()
                .mapToLong(l -> Math.round(l.length() * FakeTtsFamily.RATE / 100.0))
                .sum();
        assertThat(written.get()).isEqualTo(44 + 2 * chars);
    }

    @Test
    void aTextFileIsReadAsUtf8() throws Exception {
        Path file = Files.writeString(dir.resolve("t.txt"), "Café au lait.\n");
        Path wav = dir.resolve("f.wav");
        Tts r = tts("--text-file", file.toString(), "--out", wav.toString(), "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\"text\":\"Café au lait.\"");
    }

    /** Bad requests: usage errors (2) before the model loads, text the model cannot say (1) after; never a trace or half a file. */
    @Test
    void badInputFailsWithItsExitStatusAndWhatToDo() throws Exception {
        Path wav = dir.resolve("x.wav"), old = Files.writeString(dir.resolve("old.wav"), "an earlier run");
        Path empty = Files.writeString(dir.resolve("empty.txt"), " \n\n"),
                latin1 = Files.write(dir.resolve("latin1.txt"), new byte[] {'C', 'a', 'f', (byte) 0xE9});
        String m = model.toString(), out = wav.toString();
        record Case(String why, int exit, String message, String... args) {}
        List<Case> before = List.of(
                new Case("empty text", 2, "--text is empty; give the words to say", "--text", "", "--out", out),
                new Case("blank text", 2, "--text is empty", "--text", "  \n", "--out", out),
                new Case(
                        "both",
                        2,
                        "give the text once: --text or --text-file, not both",
                        "--text",
                        "hi",
                        "--text-file",
                        empty.toString(),
                        "--out",
                        out),
                new Case(
                        "neither",
                        2,
                        "--task tts needs the text to say: --text \"...\" or --text-file FILE",
                        "--out",
                        out),
                new Case(
                        "no out",
                        2,
                        "--task tts needs --out FILE.wav for the audio (or --out - to write the WAV to standard output)",
                        "--text",
                        "hi"),
                new Case(
                        "json and stdout",
                        2,
                        "--json prints to standard output, which --out - fills with the WAV",
                        "--text",
                        "hi",
                        "--out",
                        "-",
                        "--json"),
                new Case(
                        "speed 0",
                        2,
                        "--speed: speed must be in [0.25, 4], got 0.0",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--speed",
                        "0"),
                new Case(
                        "speed 100",
                        2,
                        "--speed: speed must be in [0.25, 4], got 100.0",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--speed",
                        "100"),
                new Case(
                        "mode",
                        2,
                        "unknown --mode 'live'; valid: offline, streaming",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--mode",
                        "live"),
                new Case(
                        "audio",
                        2,
                        "--task tts says text (--text or --text-file); --audio is for vad, asr, kws and notes",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--audio",
                        out),
                new Case(
                        "vad option",
                        2,
                        "--threshold is an option of --task vad and --task kws, not of --task tts; its options: --mode, --out, --text, "
                                + "--text-file, --voice, --speed",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--threshold",
                        "0.3"),
                new Case(
                        "no text file",
                        1,
                        dir.resolve("nope.txt") + ": the --text-file does not exist",
                        "--text-file",
                        dir.resolve("nope.txt").toString(),
                        "--out",
                        out),
                new Case(
                        "out folder",
                        1,
                        "--out " + dir + " is a folder; name a file",
                        "--text",
                        "hi",
                        "--out",
                        dir.toString()));
        List<Case> after = List.of(
                new Case(
                        "unknown voice",
                        2,
                        "unknown voice 'xx_nobody'; fake-tts (sines) has af_heart, bm_george, jf_alpha ('audioengine voices'",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--voice",
                        "xx_nobody"),
                new Case(
                        "misspelt voice",
                        2,
                        "unknown voice 'af_haert'; did you mean af_heart? ('audioengine voices' lists all 3 with their"
                                + " languages)",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--voice",
                        "af_haert"),
                new Case(
                        "voice in capitals",
                        2,
                        "unknown voice 'BM_GEORGE'; did you mean bm_george?",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--voice",
                        "BM_GEORGE"),
                new Case(
                        "voice's name alone",
                        2,
                        "unknown voice 'george'; did you mean bm_george?",
                        "--text",
                        "hi",
                        "--out",
                        out,
                        "--voice",
                        "george"),
                new Case(
                        "nothing speakable",
                        1,
                        "--text: the text has nothing to say: no speakable characters",
                        "--text",
                        "... !? -",
                        "--out",
                        out),
                new Case(
                        "nothing speakable, streaming",
                        1,
                        "--text: the text has nothing to say: no speakable characters",
                        "--text",
                        "... !? -",
                        "--out",
                        out,
                        "--mode",
                        "streaming"),
                new Case(
                        "empty file",
                        1,
                        empty + ": the text has nothing to say",
                        "--text-file",
                        empty.toString(),
                        "--out",
                        out),
                new Case(
                        "empty file, streaming",
                        1,
                        empty + ": the text has nothing to say",
                        "--text-file",
                        empty.toString(),
                        "--out",
                        out,
                        "--mode",
                        "streaming"),
                new Case("not UTF-8", 1, latin1 + " is not UTF-8 text", "--text-file", latin1.toString(), "--out", out),
                new Case(
                        "not UTF-8, streaming",
                        1,
                        latin1 + " is not UTF-8 text",
                        "--text-file",
                        latin1.toString(),
                        "--out",
                        out,
                        "--mode",
                        "streaming"),
                new Case(
                        "language",
                        1,
                        "--text: " + FakeTtsFamily.JAPANESE,
                        "--text",
                        "Konnichiwa.",
                        "--out",
                        out,
                        "--voice",
                        "jf_alpha"),
                new Case(
                        "language, streaming, an earlier file kept",
                        1,
                        "--text: " + FakeTtsFamily.JAPANESE,
                        "--text",
                        "Konnichiwa.",
                        "--out",
                        old.toString(),
                        "--voice",
                        "jf_alpha",
                        "--mode",
                        "streaming"));
        for (List<Case> cases : List.of(before, after)) {
            for (Case c : cases) {
                List<String> args = new ArrayList<>(List.of("--task", "tts", "--model", m));
                args.addAll(List.of(c.args()));
                Tts r = run(
                        family,
                        new ByteArrayInputStream(new byte[0]),
                        new ByteArrayOutputStream(),
                        args.toArray(String[]::new));
                assertThat(r.exit()).as(c.why() + ": " + r).isEqualTo(c.exit());
                assertThat(r.err())
                        .as(c.why())
                        .contains("error: " + c.message())
                        .doesNotContain("\tat ", "internal error");
                assertThat(r.out()).as(c.why()).isEmpty();
                assertThat(r.bytes()).as(c.why()).isEmpty();
                assertThat(wav).as(c.why() + ": no file").doesNotExist();
            }
            if (cases == before)
                assertThat(family.loads)
                        .as("every usage error is found before the model loads")
                        .hasValue(0);
        }
        assertThat(Files.readString(old))
                .as("a failed run leaves the earlier file")
                .isEqualTo("an earlier run");
        try (var left = Files.list(dir)) {
            assertThat(left.filter(p -> p.getFileName().toString().endsWith(".partial")))
                    .as("no partial file left")
                    .isEmpty();
        }
    }

    /**
     * An output that is the input (by its real path: through a link or "..") would replace the text with audio: refused
     * before anything is loaded, and the text is left as it was.
     */
    @Test
    void anOutputThatIsTheTextFileIsRefusedBeforeTheModelLoads() throws Exception {
        Path text = Files.writeString(dir.resolve("same.txt"), TEXT);
        Path link = Files.createSymbolicLink(dir.resolve("link.wav"), text);
        Files.createDirectories(dir.resolve("sub"));
        for (String out : List.of(
                text.toString(), link.toString(), dir.resolve("sub/../same.txt").toString())) {
            for (String mode : List.of("offline", "streaming")) {
                Tts r = tts("--text-file", text.toString(), "--out", out, "--mode", mode);
                assertThat(r.exit()).as(out + ", " + mode + ": " + r).isEqualTo(2);
                assertThat(r.err()).contains("error: --out " + out + " is the input " + text + "; name another file");
                assertThat(Files.readString(text)).as("the text is untouched").isEqualTo(TEXT);
            }
        }
        assertThat(family.loads).hasValue(0);
    }

    /** "-" reads standard input for --text as it does for --text-file. */
    @Test
    void textDashReadsStandardInput() {
        Path wav = dir.resolve("in.wav");
        Tts r = run(
                family,
                new ByteArrayInputStream(TEXT.getBytes(StandardCharsets.UTF_8)),
                new ByteArrayOutputStream(),
                "--task",
                "tts",
                "--model",
                model.toString(),
                "--text",
                "-",
                "--out",
                wav.toString(),
                "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\"text\":\"Hello world.\"", "\"text\":\"How are you?\"");
        assertThat(wav).exists();
    }

    /**
     * An --out that cannot be written (root may write almost anything, but not a file into /proc or /sys) is found before
     * the model loads, and the message names the user's path, not the hidden file the audio is first written to. A
     * FIFO or a device is no file to replace with a WAV.
     */
    @Test
    void anUnwritableOutIsFoundBeforeTheModelLoadsAndNamedAsGiven() throws Exception {
        List<String> outs = new ArrayList<>(List.of("/proc/version", "/sys/kernel/e.wav"));
        Path fifo = dir.resolve("pipe.wav");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) outs.add(fifo.toString());
        for (String out : outs) {
            Tts r = tts("--text", TEXT, "--out", out);
            assertThat(r.exit()).as(out + ": " + r).isEqualTo(1);
            assertThat(r.err()).as(out).contains("error: ").contains(out).doesNotContain(".partial", "\tat ");
        }
        assertThat(family.loads).hasValue(0);
        if (outs.contains(fifo.toString()))
            assertThat(Files.isRegularFile(fifo)).as("the FIFO is still one").isFalse();
    }

    /** Without --voice the summary and --json name the voice the model chose, not "the model's default". */
    @Test
    @SuppressWarnings("unchecked")
    void theDefaultVoiceIsNamed() {
        Path wav = dir.resolve("v.wav");
        Tts r = tts("--text", TEXT, "--out", wav.toString(), "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).contains("voice af_heart,").doesNotContain("the model's default");
        assertThat((Map<String, Object>) AsrTaskTest.json(r.out().strip())).containsEntry("voice", "af_heart");
    }

    /** A machine without espeak-ng: "cannot serve" (1) with the packages to install, in both modes; no trace, no debug hint. */
    @Test
    void aMissingSystemLibraryIsReportedAsWhatToInstall() {
        family.espeakMissing = true;
        Path wav = dir.resolve("x.wav");
        for (String mode : List.of("offline", "streaming")) {
            Tts r = tts("--text", TEXT, "--out", wav.toString(), "--mode", mode);
            assertThat(r.exit()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).as(mode).isEqualTo("error: " + FakeTtsFamily.NO_ESPEAK + "\n");
            assertThat(wav).doesNotExist();
        }
    }

    @Test
    void aTtsOptionWithAnotherTaskIsAUsageError() {
        CliRun r = CliRun.run(family.registry(), "--task", "vad", "--audio", "x.wav", "--voice", "af_heart");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--voice is an option of --task tts, not of --task vad");
        CliRun stray = CliRun.run(family.registry(), "--text", "hi");
        assertThat(stray.exit()).isEqualTo(2);
        assertThat(stray.err()).contains("--text needs --task");
    }

    @Test
    void helpDocumentsTheTtsOptions() {
        CliRun help = CliRun.run(family.registry(), "--help");
        assertThat(help.exit()).isZero();
        String tts = help.out().substring(help.out().indexOf("Options of --task tts"));
        assertThat(tts)
                .contains(
                        "--text=TEXT",
                        "--text-file=FILE",
                        "--voice=NAME",
                        "--speed=X",
                        "--out=FILE.wav|-",
                        "0xFFFFFFFF",
                        "Required: there is no default");
        assertThat(help.out()).contains("Options of every task:", "--mode=offline|streaming", "tts (speech synthesis)");
    }
}
