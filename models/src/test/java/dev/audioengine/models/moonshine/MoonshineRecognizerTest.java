package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.evaluation.EnglishTextNormalizer;
import dev.audioengine.evaluation.WordErrorRate;
import dev.audioengine.model.Models;
import dev.audioengine.model.output.WavWriter;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.model.task.TranscriptSegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recognizer as users call it (Models.load → SpeechRecognizer) on long and live audio built from Debian's
 * recordings: speech separated by silences of different lengths, starting and ending in silence, minutes long, none
 * at all; concurrent callers on one recognizer.
 */
class MoonshineRecognizerTest {
    private static final EnglishTextNormalizer NORMALIZER = new EnglishTextNormalizer();
    private static AudioEngine engine;
    private static SpeechRecognizer asr;
    private static List<MoonshineFixtures.Utterance> set;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(2).build();
        asr = Models.load(engine, "moonshine-tiny", SpeechRecognizer.class);
        set = MoonshineFixtures.debianSet();
    }

    @AfterAll
    static void close() {
        asr.close();
        engine.close();
    }

    /** The recordings joined by the given silences (seconds, with a little noise), plus where each one starts. */
    private static float[] recording(double[] gaps, List<Long> starts, int repeats) {
        Random noise = new Random(5);
        List<float[]> parts = new ArrayList<>();
        long at = 0;
        for (int r = 0; r < repeats; r++) {
            for (int i = 0; i < set.size(); i++) {
                float[] gap = new float[(int) (gaps[i % gaps.length] * 16000)];
                for (int j = 0; j < gap.length; j++) gap[j] = (float) (0.002 * noise.nextGaussian());
                parts.add(gap);
                at += gap.length;
                starts.add(at);
                parts.add(set.get(i).samples());
                at += set.get(i).samples().length;
            }
        }
        float[] tail = new float[3 * 16000];
        parts.add(tail);
        float[] out = new float[Math.toIntExact(at + tail.length)];
        int p = 0;
        for (float[] part : parts) {
            System.arraycopy(part, 0, out, p, part.length);
            p += part.length;
        }
        return out;
    }

    private static String references(int repeats) {
        List<String> refs = new ArrayList<>();
        for (int r = 0; r < repeats; r++) for (MoonshineFixtures.Utterance u : set) refs.add(u.transcript());
        return NORMALIZER.normalize(String.join(" ", refs));
    }

    @Test
    void longAudioWithSilencesIsTranscribedInWindowsWithTheirTimes(@TempDir Path dir) throws Exception {
        List<Long> starts = new ArrayList<>();
        float[] audio = recording(new double[] {3, 0.3, 2, 6, 0.8, 1.5, 0.4, 4, 1, 2.5}, starts, 1);
        Path wav = dir.resolve("long.wav");
        WavWriter.writeFloat(wav, audio, 16000);
        Transcript t = asr.transcribe(wav, AsrOptions.DEFAULTS);
        WordErrorRate.Result wer = WordErrorRate.score(references(1), NORMALIZER.normalize(t.text()));
        System.out.printf(
                "long-form, %.1f s, %d windows: %s%n  %s%n",
                t.audioSeconds(), t.segments().size(), wer, t.text());
        assertThat(t.audioSeconds()).isCloseTo(audio.length / 16000.0, org.assertj.core.api.Assertions.within(1e-6));
        assertThat(wer.errors())
                .as("word errors over the joined recordings (each alone: 3 of 91)")
                .isLessThanOrEqualTo(6);
        long previousEnd = 0;
        for (TranscriptSegment s : t.segments()) {
            assertThat(s.startSample()).as("windows in order, apart").isGreaterThanOrEqualTo(previousEnd);
            assertThat(s.endSample()).isLessThanOrEqualTo(audio.length);
            assertThat(s.endSeconds() - s.startSeconds()).isLessThanOrEqualTo(AsrOptions.DEFAULTS.maxWindowSeconds());
            previousEnd = s.endSample();
        }
        // the first recording starts after 3 s of silence: its window starts near it, not at 0
        assertThat(t.segments().getFirst().startSample())
                .isBetween(starts.getFirst() - 16000, starts.getFirst() + 4000);
        assertThat(t.segments().getFirst().text()).startsWith("And Mr. John Dashwood");
    }

    @Test
    void minutesOfAudioAndNoSpeechAtAll() {
        List<Long> starts = new ArrayList<>();
        float[] audio = recording(new double[] {1.2, 0.6, 2}, starts, 4); // 4 × 34 s of speech + gaps: over 2 minutes
        Transcript t = asr.transcribe(audio, AsrOptions.DEFAULTS);
        WordErrorRate.Result wer = WordErrorRate.score(references(4), NORMALIZER.normalize(t.text()));
        System.out.printf(
                "%.0f s in %d windows: %s%n", t.audioSeconds(), t.segments().size(), wer);
        assertThat(t.audioSeconds()).isGreaterThan(120);
        assertThat(wer.rate()).isLessThan(0.08);

        float[] quiet = new float[10 * 16000];
        Random r = new Random(3);
        for (int i = 0; i < quiet.length; i++) quiet[i] = (float) (0.003 * r.nextGaussian());
        Transcript none = asr.transcribe(quiet, AsrOptions.DEFAULTS);
        assertThat(none.text()).isEmpty();
        assertThat(none.segments()).isEmpty();
        assertThat(none.decodedTokens()).isZero();
    }

    @Test
    void liveTranscriptionGivesPartialsThenFinals() {
        List<Long> starts = new ArrayList<>();
        float[] audio = recording(new double[] {1.5, 2, 1}, starts, 1);
        List<TranscriptEvent> events = new ArrayList<>();
        try (AsrStream live = asr.stream(AsrOptions.DEFAULTS)) {
            for (int i = 0; i < audio.length; i += 320)
                events.addAll(live.accept(audio, i, Math.min(320, audio.length - i)));
            events.addAll(live.finish());
        }
        List<TranscriptSegment> finals = events.stream()
                .filter(e -> e instanceof TranscriptEvent.Final)
                .map(TranscriptEvent::segment)
                .toList();
        long partials = events.stream()
                .filter(e -> e instanceof TranscriptEvent.Partial)
                .count();
        String text = finals.stream()
                .map(TranscriptSegment::text)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.joining(" "));
        WordErrorRate.Result wer = WordErrorRate.score(references(1), NORMALIZER.normalize(text));
        System.out.printf("live: %d partials, %d finals: %s%n", partials, finals.size(), wer);
        assertThat(partials).as("partial text while people speak").isGreaterThan(finals.size());
        assertThat(wer.errors()).isLessThanOrEqualTo(8);
        for (int i = 1; i < finals.size(); i++)
            assertThat(finals.get(i).startSample())
                    .isGreaterThanOrEqualTo(finals.get(i - 1).endSample());
    }

    /**
     * A long recording's windows decoded 8 at a time in a batch (while the detector reads on) give the transcript that
     * one window at a time gives: the same segments, times and text, in order.
     */
    @Test
    void longAudioDecodedWindowsAtOnceInABatchGivesTheSameSegments() {
        float[] audio = recording(new double[] {0.7, 2.5, 1.2}, new ArrayList<>(), 1);
        try (MoonshineRecognizer alone =
                        (MoonshineRecognizer) Models.load(engine, "moonshine-tiny", SpeechRecognizer.class);
                MoonshineRecognizer batched =
                        (MoonshineRecognizer) Models.load(engine, "moonshine-tiny", SpeechRecognizer.class)) {
            batched.batching(new dev.audioengine.model.task.Batching(8, 0));
            Transcript one = alone.transcribe(audio, AsrOptions.DEFAULTS);
            Transcript many = batched.transcribe(audio, AsrOptions.DEFAULTS);
            assertThat(one.segments()).hasSizeGreaterThan(3);
            assertThat(many.segments()).isEqualTo(one.segments());
            assertThat(batched.batchStats().occupancy())
                    .as("windows shared steps: %s", batched.batchStats())
                    .isGreaterThan(1.5);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A folder over two devices (two CPU engines standing for --device 0,1): the pool spreads the recordings over both
     * copies, batching on each, and every transcript is the one a single recognizer gives it.
     */
    @Test
    void aPoolOverTwoEnginesSpreadsRecordingsAndKeepsTheirTranscripts() throws Exception {
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("librivox", "cards"))
            try (var list = java.nio.file.Files.list(MoonshineFixtures.POCKETSPHINX.resolve(dir))) {
                list.filter(f -> f.toString().endsWith(".wav")).sorted().forEach(files::add);
            }
        List<String> alone = new ArrayList<>();
        for (Path f : files) alone.add(asr.transcribe(f, AsrOptions.DEFAULTS).text());
        try (AudioEngine second =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                var pool = dev.audioengine.model.task.RecognizerPool.of(List.of(
                        Models.load(engine, "moonshine-tiny", SpeechRecognizer.class),
                        Models.load(second, "moonshine-tiny", SpeechRecognizer.class)))) {
            pool.batching(new dev.audioengine.model.task.Batching(4, 0));
            List<String> pooled = new ArrayList<>();
            for (var f : pool.transcribeAll(files, AsrOptions.DEFAULTS))
                pooled.add(f.get(300, TimeUnit.SECONDS).text());
            assertThat(pooled).isEqualTo(alone);
            for (SpeechRecognizer copy : pool.copies())
                assertThat(copy.batchStats().windows())
                        .as("windows decoded by each copy")
                        .isPositive();
        }
    }

    @Test
    void concurrentCallersGetWhatOneCallerGets() throws Exception {
        callersAtOnceGetWhatOneCallerGets(asr, 4, 3);
    }

    /**
     * On an engine opened for concurrent runs (as Spark's executors open theirs) the callers' windows run at once,
     * each on a session of its own, and each caller gets what one caller gets.
     */
    @Test
    void concurrentRunsGetWhatOneCallerGets() throws Exception {
        try (AudioEngine overlapping = AudioEngine.builder()
                        .backend("cpu")
                        .threads(1)
                        .concurrentRuns(true)
                        .build();
                SpeechRecognizer shared = Models.load(overlapping, "moonshine-tiny", SpeechRecognizer.class)) {
            assertThat(overlapping.concurrentRuns()).isTrue();
            callersAtOnceGetWhatOneCallerGets(shared, 3, 2);
        }
    }

    /** Every recording {@code rounds} times from {@code threads} callers at once: each text what one caller got alone. */
    private static void callersAtOnceGetWhatOneCallerGets(SpeechRecognizer r, int threads, int rounds)
            throws Exception {
        List<String> alone = set.stream()
                .map(u -> asr.transcribeWindow(u.samples(), 0, AsrOptions.DEFAULTS)
                        .text())
                .toList();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<String>> got = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                for (MoonshineFixtures.Utterance u : set)
                    got.add(pool.submit(() -> r.transcribeWindow(u.samples(), 0, AsrOptions.DEFAULTS)
                            .text()));
            }
            for (int i = 0; i < got.size(); i++)
                assertThat(got.get(i).get(120, TimeUnit.SECONDS)).isEqualTo(alone.get(i % set.size()));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void windowsLongerThanTheLimitAndBadOptionsAreRefused() {
        float[] tooLong = new float[11 * 16000];
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> asr.transcribeWindow(tooLong, 0, AsrOptions.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than max-window-s 10");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AsrOptions.DEFAULTS.withMaxWindowSeconds(0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max-window-s");
        assertThat(asr.transcribeWindow(new float[500], 0, AsrOptions.DEFAULTS).text())
                .as("shorter than one encoder frame")
                .isEmpty();
    }
}
