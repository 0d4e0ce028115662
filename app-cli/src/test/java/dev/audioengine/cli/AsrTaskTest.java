package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.CliRun;
import dev.audioengine.cli.testkit.FakeAsrFamily;
import dev.audioengine.cli.testkit.MiniJson;
import dev.audioengine.model.task.AsrOptions;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The --task asr front end against a scripted family (FakeAsrFamily): speech at 0.5-1.5 s and 2.0-3.5 s of a 4 s file
 * says "hello world", then "this is a test".
 */
class AsrTaskTest {
    @TempDir
    Path dir;

    private final FakeAsrFamily family = new FakeAsrFamily("hello world", "this is a test");
    private Path model, speech, silence;

    @BeforeEach
    void files() throws Exception {
        model = FakeAsrFamily.modelFile(dir);
        speech = FakeAsrFamily.wav(dir.resolve("speech.wav"), 0.5, 1.0, 0.5, 1.5, 0.5);
        silence = FakeAsrFamily.wav(dir.resolve("silence.wav"), 2.0);
    }

    /** The JSON text parsed, every number a Double (the writer prints 2.0 as 2, which MiniJson reads as a Long). */
    static Object json(String text) {
        return MiniJson.parseNumbersAsDoubles(text);
    }

    private CliRun asr(String... more) {
        List<String> args = new ArrayList<>(List.of("--task", "asr", "--model", model.toString(), "--threads", "1"));
        args.addAll(List.of(more));
        return CliRun.run(family.registry(), args.toArray(String[]::new));
    }

    @Test
    void plainPrintsTheTranscriptOnStdoutAndASummaryOnStderr() {
        CliRun r = asr("--audio", speech.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("hello world this is a test\n");
        assertThat(r.err())
                .contains("audioengine: speech.wav: 2 segments, 4.00 s of audio in ")
                .contains("(fake-asr (scripted) on CPU, ")
                .containsPattern("\\d+\\.\\dx real time, 6 tokens\\)");
        assertThat(family.lastOptions).isEqualTo(AsrOptions.DEFAULTS);

        CliRun quiet = asr("--audio", speech.toString(), "--quiet");
        assertThat(quiet.err()).isEmpty();
        assertThat(quiet.out()).isEqualTo(r.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonIsOneDocumentWithTextSegmentsAndSpeed() {
        CliRun r = asr("--audio", speech.toString(), "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        Map<String, Object> doc = (Map<String, Object>) json(r.out().strip());
        assertThat(doc.keySet())
                .containsExactly(
                        "audio", "text", "segments", "model", "backend", "audio_seconds", "realtime_factor", "tokens");
        assertThat(doc)
                .containsEntry("audio", speech.toString())
                .containsEntry("text", "hello world this is a test")
                .containsEntry("model", "fake-asr (scripted)")
                .containsEntry("backend", "CPU")
                .containsEntry("audio_seconds", 4.0)
                .containsEntry("tokens", 6.0);
        assertThat((Double) doc.get("realtime_factor")).isPositive();
        assertThat((List<Object>) doc.get("segments"))
                .containsExactly(
                        Map.of("start", 0.5, "end", 1.5, "text", "hello world"),
                        Map.of("start", 2.0, "end", 3.5, "text", "this is a test"));
    }

    /** --word-timestamps: the request carries it (and --dtw-heads), --json lists each segment's timed words. */
    @Test
    @SuppressWarnings("unchecked")
    void wordTimestampsGoIntoTheJson() {
        CliRun r = asr("--audio", speech.toString(), "--json", "--word-timestamps");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(family.lastOptions.wordTimestamps()).isTrue();
        assertThat(family.lastOptions.alignmentHeads()).isNull();
        Map<String, Object> doc = (Map<String, Object>) json(r.out().strip());
        List<Map<String, Object>> segments = (List<Map<String, Object>>) doc.get("segments");
        assertThat(segments.get(0))
                .containsEntry("text", "hello world")
                .containsEntry(
                        "words",
                        List.of(
                                Map.of("word", " hello", "start", 0.5, "end", 1.0, "probability", 0.5),
                                Map.of("word", " world", "start", 1.0, "end", 1.5, "probability", 0.5)))
                // a sampling recognizer's statistics, named as in OpenAI's verbose_json
                .containsEntry("temperature", 0.2)
                .containsEntry("avg_logprob", -0.5)
                .containsEntry("compression_ratio", 1.25)
                .containsEntry("no_speech_prob", 0.03125);
        assertThat((List<Object>) segments.get(1).get("words")).hasSize(4);

        CliRun plain = asr("--audio", speech.toString(), "--json");
        assertThat(((List<Map<String, Object>>)
                                ((Map<String, Object>) json(plain.out().strip())).get("segments"))
                        .get(0))
                .doesNotContainKey("words");
        assertThat(family.lastOptions.wordTimestamps()).isFalse();

        assertThat(asr("--audio", speech.toString(), "--dtw-heads", "2:2,3:0").exit())
                .isZero();
        assertThat(family.lastOptions.wordTimestamps()).isTrue();
        assertThat(family.lastOptions.alignmentHeads()).isEqualTo("2:2,3:0");
    }

    /** --word-timestamps with subtitles: one cue per word, its text without the leading space. */
    @Test
    void wordTimestampsGiveOneCuePerWord() throws Exception {
        Path srt = dir.resolve("words.srt"), vtt = dir.resolve("words.vtt");
        assertThat(asr("--audio", speech.toString(), "--word-timestamps", "--segments-out", srt.toString())
                        .exit())
                .isZero();
        assertThat(Files.readString(srt))
                .isEqualTo("1\n00:00:00,500 --> 00:00:01,000\nhello\n\n"
                        + "2\n00:00:01,000 --> 00:00:01,500\nworld\n\n"
                        + "3\n00:00:02,000 --> 00:00:02,375\nthis\n\n"
                        + "4\n00:00:02,375 --> 00:00:02,750\nis\n\n"
                        + "5\n00:00:02,750 --> 00:00:03,125\na\n\n"
                        + "6\n00:00:03,125 --> 00:00:03,500\ntest\n\n");
        assertThat(asr("--audio", speech.toString(), "--word-timestamps", "--segments-out", vtt.toString())
                        .exit())
                .isZero();
        assertThat(Files.readString(vtt))
                .startsWith(
                        "WEBVTT\n\n00:00:00.500 --> 00:00:01.000\nhello\n\n00:00:01.000 --> 00:00:01.500\nworld\n\n")
                .endsWith("00:00:03.125 --> 00:00:03.500\ntest\n\n");
    }

    @Test
    void segmentsOutWritesSubtitlesWithTheText() throws Exception {
        Path srt = dir.resolve("out.srt"), vtt = dir.resolve("out.vtt");
        assertThat(asr("--audio", speech.toString(), "--segments-out", srt.toString())
                        .exit())
                .isZero();
        assertThat(Files.readString(srt))
                .isEqualTo("1\n00:00:00,500 --> 00:00:01,500\nhello world\n\n"
                        + "2\n00:00:02,000 --> 00:00:03,500\nthis is a test\n\n");
        assertThat(asr("--audio", speech.toString(), "--segments-out", vtt.toString())
                        .exit())
                .isZero();
        assertThat(Files.readString(vtt))
                .isEqualTo("WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nhello world\n\n"
                        + "00:00:02.000 --> 00:00:03.500\nthis is a test\n\n");
    }

    @Test
    @SuppressWarnings("unchecked")
    void segmentsJsonRecordsTheModelOptionsAndText() throws Exception {
        Path json = dir.resolve("out.json");
        CliRun r = asr(
                "--audio",
                speech.toString(),
                "--segments-out",
                json.toString(),
                "--max-window-s",
                "12",
                "--merge-gap-s",
                "0.75",
                "--vad-threshold",
                "0.3");
        assertThat(r.exit()).as(r.toString()).isZero();
        Map<String, Object> doc = (Map<String, Object>) json(Files.readString(json));
        assertThat(doc)
                .containsEntry("audio", speech.toString())
                .containsEntry("sample_rate", 16000.0)
                .containsEntry("model", "fake-asr (scripted)")
                .containsEntry("mode", "offline")
                .containsEntry("max_window_s", 12.0)
                .containsEntry("merge_gap_s", 0.75)
                .containsEntry("vad_threshold", 0.3)
                .containsEntry("text", "hello world this is a test");
        List<Map<String, Object>> segs = (List<Map<String, Object>>) doc.get("segments");
        assertThat(segs).hasSize(2);
        assertThat(segs.get(1))
                .containsEntry("start", 2.0)
                .containsEntry("end", 3.5)
                .containsEntry("start_sample", 32000.0)
                .containsEntry("end_sample", 56000.0)
                .containsEntry("label", "speech")
                .containsEntry("text", "this is a test");
        assertThat(family.lastOptions.maxWindowSeconds()).isEqualTo(12);
        assertThat(family.lastOptions.mergeGapSeconds()).isEqualTo(0.75);
        assertThat(family.lastOptions.vad().threshold()).isEqualTo(0.3);
    }

    /** A window that decoded to nothing stays in JSON (it was speech) but is no subtitle cue: it would read "speech". */
    @Test
    void aWindowWithNoTextIsNoSubtitleButStaysInJson() throws Exception {
        FakeAsrFamily mute = new FakeAsrFamily("hello world", "");
        Path srt = dir.resolve("out.srt"), json = dir.resolve("out.json");
        for (Path out : List.of(srt, json)) {
            CliRun r = CliRun.run(
                    mute.registry(),
                    "--task",
                    "asr",
                    "--model",
                    model.toString(),
                    "--audio",
                    speech.toString(),
                    "--segments-out",
                    out.toString());
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.out()).isEqualTo("hello world\n");
        }
        assertThat(Files.readString(srt)).isEqualTo("1\n00:00:00,500 --> 00:00:01,500\nhello world\n\n");
        assertThat(Files.readString(json)).contains("\"text\":\"\"}]}");
    }

    @Test
    @SuppressWarnings("unchecked")
    void maxWindowCutsLongSpeech() {
        CliRun r = asr("--audio", speech.toString(), "--json", "--max-window-s", "1");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat((List<Object>) ((Map<String, Object>) json(r.out())).get("segments"))
                .containsExactly(
                        Map.of("start", 0.5, "end", 1.5, "text", "hello world"),
                        Map.of("start", 2.0, "end", 3.0, "text", "this is a test"),
                        Map.of("start", 3.0, "end", 3.5, "text", "hello world"));
    }

    @Test
    void noSpeechIsAnEmptyTranscriptAndSuccess() {
        CliRun plain = asr("--audio", silence.toString());
        assertThat(plain.exit()).as(plain.toString()).isZero();
        assertThat(plain.out()).isEqualTo("\n");
        assertThat(plain.err()).contains("silence.wav: 0 segments, 2.00 s of audio");
        CliRun json = asr("--audio", silence.toString(), "--json");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).startsWith("{\"audio\":\"" + silence + "\",\"text\":\"\",\"segments\":[],");
    }

    @Test
    @SuppressWarnings("unchecked")
    void severalInputsPrefixLinesGiveAJsonArrayAndWriteIntoAFolder() throws Exception {
        CliRun plain = asr("--audio", speech.toString(), silence.toString());
        assertThat(plain.exit()).as(plain.toString()).isZero();
        assertThat(plain.out()).isEqualTo(speech + ": hello world this is a test\n" + silence + ": \n");

        CliRun json = asr("--audio", speech.toString(), silence.toString(), "--json");
        List<Map<String, Object>> docs =
                (List<Map<String, Object>>) json(json.out().strip());
        assertThat(docs)
                .extracting(d -> d.get("audio"), d -> d.get("text"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(speech.toString(), "hello world this is a test"),
                        org.assertj.core.groups.Tuple.tuple(silence.toString(), ""));

        Path out = Files.createDirectories(dir.resolve("subs"));
        CliRun files = asr(
                "--audio", speech.toString(), silence.toString(), "--segments-out", out.toString(), "--format", "srt");
        assertThat(files.exit()).as(files.toString()).isZero();
        assertThat(Files.readString(out.resolve("speech.wav.segments.srt")))
                .startsWith("1\n00:00:00,500 --> 00:00:01,500\nhello world\n");
        assertThat(out.resolve("silence.wav.segments.srt")).hasContent("");
    }

    @Test
    void standardInputIsAnInput() throws Exception {
        InputStream old = System.in;
        try (InputStream in = Files.newInputStream(speech)) {
            System.setIn(in);
            CliRun r = asr("--audio", "-");
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.out()).isEqualTo("hello world this is a test\n");
        } finally {
            System.setIn(old);
        }
    }

    @Test
    void streamingPrintsEachSegmentAsItSettles() {
        CliRun r = asr("--audio", speech.toString(), "--mode", "streaming");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("[0.500 \u2192 1.500] hello world\n[2.000 \u2192 3.500] this is a test\n");
        assertThat(r.err())
                .as("partials only on a terminal")
                .doesNotContain("\u001b[K")
                .contains("2 segments, 4.00 s of audio");
    }

    @Test
    void streamingRewritesOneTerminalLineWithThePartialText() {
        String before = System.getProperty("audioengine.stderr.terminal");
        try {
            System.setProperty("audioengine.stderr.terminal", "true");
            CliRun r = asr("--audio", speech.toString(), "--mode", "streaming");
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.err())
                    .contains(
                            "\rhello\u001b[K",
                            "\rhello world\u001b[K",
                            "\rthis\u001b[K",
                            "\rthis is\u001b[K",
                            "\rthis is a\u001b[K");
            assertThat(r.out())
                    .as("partials stay off stdout")
                    .isEqualTo("[0.500 \u2192 1.500] hello world\n[2.000 \u2192 3.500] this is a test\n");
            assertThat(asr("--audio", speech.toString(), "--mode", "streaming", "--quiet")
                            .err())
                    .isEmpty();
        } finally {
            if (before == null) System.clearProperty("audioengine.stderr.terminal");
            else System.setProperty("audioengine.stderr.terminal", before);
        }
    }

    @Test
    void streamingJsonIsOneLinePerEvent() {
        CliRun r = asr("--audio", speech.toString(), "--mode", "streaming", "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<Object> events = r.out().lines().map(AsrTaskTest::json).toList();
        assertThat(events)
                .containsExactly(
                        Map.of("type", "partial", "start", 0.5, "end", 1.0, "text", "hello"),
                        Map.of("type", "partial", "start", 0.5, "end", 1.5, "text", "hello world"),
                        Map.of("type", "final", "start", 0.5, "end", 1.5, "text", "hello world"),
                        Map.of("type", "partial", "start", 2.0, "end", 2.5, "text", "this"),
                        Map.of("type", "partial", "start", 2.0, "end", 3.0, "text", "this is"),
                        Map.of("type", "partial", "start", 2.0, "end", 3.5, "text", "this is a"),
                        Map.of("type", "final", "start", 2.0, "end", 3.5, "text", "this is a test"));
        CliRun two = asr("--audio", speech.toString(), silence.toString(), "--mode", "streaming", "--json");
        assertThat(two.out().lines().toList())
                .hasSize(7)
                .allMatch(l -> l.startsWith("{\"audio\":\"" + speech + "\",\"type\":"));
    }

    @Test
    void streamingWritesTheFinalSegments() throws Exception {
        Path srt = dir.resolve("live.srt");
        CliRun r = asr("--audio", speech.toString(), "--mode", "streaming", "--segments-out", srt.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(Files.readString(srt))
                .isEqualTo("1\n00:00:00,500 --> 00:00:01,500\nhello world\n\n"
                        + "2\n00:00:02,000 --> 00:00:03,500\nthis is a test\n\n");
    }

    /** Each task's options are its own: another task's option is a usage error naming it, found before any model loads. */
    /** --language and --translate reach the recognizer's options (lower-cased); a malformed code is a usage error. */
    @Test
    void languageAndTranslateReachTheRecognizer() {
        CliRun r = asr("--audio", speech.toString(), "--language", "DE", "--translate");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(family.lastOptions.language()).isEqualTo("de");
        assertThat(family.lastOptions.translate()).isTrue();
        CliRun auto = asr("--audio", speech.toString(), "--language", "auto");
        assertThat(auto.exit()).as(auto.toString()).isZero();
        assertThat(family.lastOptions.language()).isEqualTo("auto");
        assertThat(family.lastOptions.translate()).isFalse();
        CliRun bad = asr("--audio", speech.toString(), "--language", "german!");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.err()).contains("--language: language must be a code such as en or de, or auto");
        CliRun vad = CliRun.run(family.registry(), "--task", "vad", "--audio", speech.toString(), "--language", "de");
        assertThat(vad.exit()).as(vad.toString()).isEqualTo(2);
        assertThat(vad.err()).contains("--language is an option of --task asr, not of --task vad");
    }

    /**
     * Whisper's long-form options reach the recognizer's options (whisper.cpp's defaults when not given: the model's
     * own segmenter, 0 + 0.2, best of 5, -1, 0.6, 2.4, no compression test, conditioning); out of range is a usage
     * error naming the option.
     */
    @Test
    void longFormOptionsReachTheRecognizer() {
        CliRun plain = asr("--audio", speech.toString());
        assertThat(plain.exit()).as(plain.toString()).isZero();
        assertThat(family.lastOptions.longForm()).isEqualTo(dev.audioengine.model.task.LongFormOptions.DEFAULTS);
        CliRun r = asr(
                "--audio",
                speech.toString(),
                "--segmenter",
                "vad",
                "--temperature",
                "0.1",
                "--temperature-increment",
                "0.3",
                "--best-of",
                "3",
                "--logprob-threshold",
                "-0.5",
                "--no-speech-threshold",
                "0.4",
                "--entropy-threshold",
                "2",
                "--compression-ratio-threshold",
                "2.4",
                "--no-condition");
        assertThat(r.exit()).as(r.toString()).isZero();
        var l = family.lastOptions.longForm();
        assertThat(l.segmenter()).isEqualTo(dev.audioengine.model.task.LongFormOptions.Segmenter.VAD);
        assertThat(l.temperatures()).containsExactly(0.1f, 0.4f, 0.70000005f, 1.0f);
        assertThat(l.bestOf()).isEqualTo(3);
        assertThat(new double[] {l.logprobThreshold(), l.noSpeechThreshold(), l.entropyThreshold()})
                .containsExactly(-0.5, 0.4, 2.0);
        assertThat(l.compressionRatioThreshold()).isEqualTo(2.4);
        assertThat(l.conditionOnPrevious()).isFalse();
        CliRun once = asr("--audio", speech.toString(), "--no-fallback");
        assertThat(once.exit()).as(once.toString()).isZero();
        assertThat(family.lastOptions.longForm().temperatures()).containsExactly(0f);
        CliRun bad = asr("--audio", speech.toString(), "--segmenter", "silence");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.err()).contains("--segmenter: segmenter must be whisper or vad, got \"silence\"");
        CliRun hot = asr("--audio", speech.toString(), "--temperature", "1.5");
        assertThat(hot.exit()).as(hot.toString()).isEqualTo(2);
        assertThat(hot.err()).contains("--temperature: temperature must be in [0, 1], got 1.5");
    }

    /**
     * --beam-size and --prompt reach the recognizer's options (1, greedy, and none when not given); a beam size out of
     * 1..8 is a usage error.
     */
    @Test
    void beamSizeAndPromptReachTheRecognizer() {
        CliRun r = asr("--audio", speech.toString(), "--beam-size", "5");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(family.lastOptions.beamSize()).isEqualTo(5);
        CliRun plain = asr("--audio", speech.toString());
        assertThat(plain.exit()).as(plain.toString()).isZero();
        assertThat(family.lastOptions.beamSize()).isEqualTo(1);
        assertThat(family.lastOptions.prompt()).isNull();
        CliRun prompted = asr("--audio", speech.toString(), "--prompt", "Zürich, Grüezi.");
        assertThat(prompted.exit()).as(prompted.toString()).isZero();
        assertThat(family.lastOptions.prompt()).isEqualTo("Zürich, Grüezi.");
        CliRun bad = asr("--audio", speech.toString(), "--beam-size", "0");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.err()).contains("--beam-size: beam-size must be in [1, 8], got 0");
    }

    @Test
    void usageErrorsExitTwoAndSayWhatToDo() {
        record Case(String why, String message, String... args) {}
        String wav = speech.toString(), m = model.toString();
        for (Case c : List.of(
                new Case(
                        "vad option",
                        "--threshold is an option of --task vad and --task kws, not of --task asr; its options: --mode, --segments-out, "
                                + "--format, --audio-stream, --max-window-s, --merge-gap-s, --max-batch, --language, "
                                + "--translate, --beam-size, --prompt, --word-timestamps, --dtw-heads, --segmenter, "
                                + "--temperature, --temperature-increment, --no-fallback, --best-of, --logprob-threshold, "
                                + "--no-speech-threshold, --entropy-threshold, --compression-ratio-threshold, "
                                + "--no-condition, --vad-threshold",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--threshold",
                        "0.3"),
                new Case(
                        "vad output",
                        "--speech-out is an option of --task vad, not of --task asr",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--speech-out",
                        dir.resolve("x.wav").toString()),
                new Case(
                        "asr option with vad",
                        "--max-window-s is an option of --task asr, not of --task vad",
                        "--task",
                        "vad",
                        "--audio",
                        wav,
                        "--max-window-s",
                        "5"),
                new Case(
                        "negative merge gap",
                        "--merge-gap-s: merge-gap-s must not be negative, got -1",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--merge-gap-s",
                        "-1"),
                new Case(
                        "window too short",
                        "--max-window-s: max-window-s must be in [1, 60], got 0.5",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--max-window-s",
                        "0.5"),
                new Case(
                        "window too long",
                        "--max-window-s: max-window-s must be in [1, 60], got 61",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--max-window-s",
                        "61"),
                new Case(
                        "window NaN",
                        "--max-window-s: max-window-s must be in [1, 60], got NaN",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--max-window-s",
                        "NaN"),
                new Case(
                        "window not a number",
                        "Invalid value for option '--max-window-s': 'long' is not a double",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--max-window-s",
                        "long"),
                new Case(
                        "vad threshold",
                        "--vad-threshold: threshold must be in (0, 1)",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--vad-threshold",
                        "1.5"),
                new Case(
                        "mode",
                        "unknown --mode 'live'; valid: offline, streaming",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--mode",
                        "live"),
                new Case(
                        "format alone",
                        "--format names the format of --segments-out",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--format",
                        "srt"),
                new Case(
                        "format name",
                        "unknown segment format 'docx'",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--segments-out",
                        dir.resolve("x.docx").toString(),
                        "--format",
                        "docx"),
                new Case(
                        "extension",
                        "cannot tell the segment format of",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        "--segments-out",
                        dir.resolve("x.docx").toString()),
                new Case(
                        "several inputs, one file",
                        "with 2 inputs it must name an existing folder",
                        "--task",
                        "asr",
                        "--model",
                        m,
                        "--audio",
                        wav,
                        silence.toString(),
                        "--segments-out",
                        dir.resolve("x.srt").toString()),
                new Case("no audio", "--task asr needs --audio FILE", "--task", "asr", "--model", m),
                new Case("no task", "--max-window-s needs --task", "--max-window-s", "5"))) {
            CliRun r = CliRun.run(family.registry(), c.args());
            assertThat(r.exit()).as(c.why() + ": " + r).isEqualTo(2);
            assertThat(r.err()).as(c.why()).contains(c.message());
            assertThat(r.out()).as(c.why()).isEmpty();
        }
        assertThat(family.loads)
                .as("every usage error is found before the model loads")
                .hasValue(0);
    }

    /** --segments-out naming the audio (as given, through a link or "..") would replace the recording with subtitles. */
    @Test
    void segmentsOutOverTheInputIsRefusedBeforeTheModelLoads() throws Exception {
        byte[] before = Files.readAllBytes(speech);
        Path link = Files.createSymbolicLink(dir.resolve("link.srt"), speech);
        Files.createDirectories(dir.resolve("sub"));
        for (String out : List.of(
                speech.toString(),
                link.toString(),
                dir.resolve("sub/../speech.wav").toString())) {
            CliRun r = asr("--audio", speech.toString(), "--segments-out", out, "--format", "srt");
            assertThat(r.exit()).as(out + ": " + r).isEqualTo(2);
            assertThat(r.err())
                    .contains("error: --segments-out " + out + " is the input " + speech + "; name another file");
            assertThat(Files.readAllBytes(speech)).isEqualTo(before);
        }
        assertThat(family.loads).hasValue(0);
    }

    /** A model name that is no model is a usage error (2) naming the models; a path that does not exist stays a missing file (1). */
    @Test
    void anUnknownModelNameIsAUsageError() {
        CliRun r = CliRun.run(family.registry(), "--task", "asr", "--audio", speech.toString(), "--model", "nosuch");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err())
                .contains("error: unknown model 'nosuch'")
                .contains("fake-asr")
                .contains("--help");
        CliRun path = CliRun.run(
                family.registry(),
                "--task",
                "asr",
                "--audio",
                speech.toString(),
                "--model",
                dir.resolve("gone.bin").toString());
        assertThat(path.exit()).as(path.toString()).isEqualTo(1);
        assertThat(path.err()).contains("gone.bin: no such model");
    }

    /**
     * One file that cannot be decoded does not stop a folder: it is reported, the others are transcribed, and the run
     * exits 1 at the end; --json gives that file an entry with its error.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aBadFileInAFolderIsReportedAndTheOthersAreTranscribed() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("clips"));
        Path a = Files.copy(speech, folder.resolve("a.wav")), c = Files.copy(speech, folder.resolve("c.wav"));
        Path b = Files.writeString(folder.resolve("b.wav"), "not audio at all");
        CliRun plain = asr("--audio", folder.toString());
        assertThat(plain.exit()).as(plain.toString()).isEqualTo(1);
        assertThat(plain.out()).isEqualTo(a + ": hello world this is a test\n" + c + ": hello world this is a test\n");
        assertThat(plain.err())
                .contains("error: " + b + ": not a WAV file")
                .contains("error: 1 of 3 inputs failed: " + b)
                .doesNotContain("\tat ");

        CliRun json = asr("--audio", folder.toString(), "--json");
        assertThat(json.exit()).as(json.toString()).isEqualTo(1);
        List<Map<String, Object>> docs =
                (List<Map<String, Object>>) json(json.out().strip());
        assertThat(docs).hasSize(3);
        assertThat(docs.get(0))
                .containsEntry("audio", a.toString())
                .containsEntry("text", "hello world this is a test");
        assertThat(docs.get(1)).containsOnlyKeys("audio", "error").containsEntry("audio", b.toString());
        assertThat((String) docs.get(1).get("error")).contains("not a WAV file");
        assertThat(docs.get(2)).containsEntry("audio", c.toString());

        CliRun streaming = asr("--audio", folder.toString(), "--mode", "streaming", "--json");
        assertThat(streaming.exit()).as(streaming.toString()).isEqualTo(1);
        assertThat(streaming
                        .out()
                        .lines()
                        .filter(l -> l.contains("\"type\":\"final\""))
                        .count())
                .isEqualTo(4);
        assertThat(streaming.out()).contains("{\"audio\":\"" + b + "\",\"type\":\"error\",\"error\":\"");
    }

    @Test
    void aModelFileTheFamilyRefusesFailsNamingIt() throws Exception {
        Path notModel = Files.writeString(dir.resolve("other.bin"), "something else");
        CliRun r = CliRun.run(
                family.registry(), "--task", "asr", "--audio", speech.toString(), "--model", notModel.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("other.bin is not a model for --task asr").contains("fake_asr: ");
    }

    /** The help documents each task's options in a section of its own, with the defaults the library uses. */
    @Test
    void helpListsTheAsrOptionsWithTheLibrarysDefaults() {
        CliRun help = CliRun.run(family.registry(), "--help");
        assertThat(help.exit()).isZero();
        String asr = help.out().substring(help.out().indexOf("Options of --task asr"));
        assertThat(asr)
                .contains(
                        "--max-window-s=S", "--merge-gap-s=S", "--vad-threshold=P", "'FILE: text' with several inputs");
        assertThat(asr.replaceAll("\\s+", " ")) // picocli wraps the descriptions
                .contains("grow longer is cut at its longest pause, and one segment longer than it is split. Default: "
                        + (int) AsrOptions.DEFAULTS.maxWindowSeconds() + ".")
                .contains("share a window (0: never). Default: " + (int) AsrOptions.DEFAULTS.mergeGapSeconds() + ".")
                .contains("Default: " + AsrOptions.DEFAULTS.vad().threshold() + ".");
        assertThat(help.out()).contains("Options of --task vad and --task asr:", "Options of --task vad (");
    }
}
