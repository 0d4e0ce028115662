package dev.audioengine.models.openwakeword;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The KeywordSpotter contract on openWakeWord: a stream gives the offline scores and detections however the audio is
 * cut (one sample at a time, 80 ms frames, ragged pieces, everything at once), reset and finish start over, keyword
 * selection picks columns, and bad input is refused.
 */
class OpenWakeWordStreamTest {
    /**
     * How far two runs of the same frames may differ: the CPU backend sums a batch of frames in another order than one
     * frame (the heads' GEMM with one row takes another path: 6.6e-7 measured on one head output), and that is all a
     * different cut of the audio changes. Measured at most 1.4e-6 on a score; the parity with ONNX Runtime is 4.8e-6.
     */
    private static final org.assertj.core.data.Offset<Float> ROUNDING = org.assertj.core.data.Offset.offset(1e-5f);

    private static AudioEngine engine;
    private static OpenWakeWordSpotter spotter;
    private static float[] audio;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
        spotter = OpenWakeWordSpotter.load(
                engine,
                OpenWakeWordFixtures.mel(),
                OpenWakeWordFixtures.embedding(),
                OpenWakeWordFixtures.heads(),
                "test");
        // speech, a pause, "hey jarvis ... weather", speech, a pause, "alexa", and a tail that is not a whole frame
        // (the
        // wake words after a pause: said straight after other speech, espeak-ng's "alexa" scores 0.02)
        float[] pause = new float[16000];
        List<float[]> parts = List.of(
                OpenWakeWordFixtures.negatives().get(2).samples(),
                pause,
                OpenWakeWordFixtures.positive(OpenWakeWordFixtures.POSITIVES.getFirst())
                        .samples(),
                OpenWakeWordFixtures.negatives().get(4).samples(),
                pause,
                OpenWakeWordFixtures.positive(OpenWakeWordFixtures.POSITIVES.get(2))
                        .samples(),
                new float[777]);
        audio = new float[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, audio, at, p.length);
            at += p.length;
        }
    }

    @AfterAll
    static void close() {
        if (spotter != null) spotter.close();
        if (engine != null) engine.close();
    }

    private record Run(float[][] scores, List<KeywordDetection> detections) {}

    /** The audio through a stream in pieces of the sizes {@code sizes} gives, cycling, then finish(). */
    private static Run streamed(KeywordStream s, int... sizes) {
        List<float[]> rows = new ArrayList<>();
        List<KeywordDetection> detections = new ArrayList<>();
        int at = 0, i = 0;
        while (at < audio.length) {
            int n = Math.min(sizes[i++ % sizes.length], audio.length - at);
            KeywordStream.Result r = s.accept(audio, at, n);
            assertThat(r.firstFrame()).isEqualTo(rows.size());
            rows.addAll(Arrays.asList(r.scores()));
            detections.addAll(r.detections());
            at += n;
        }
        KeywordStream.Result r = s.finish();
        rows.addAll(Arrays.asList(r.scores()));
        detections.addAll(r.detections());
        return new Run(rows.toArray(float[][]::new), detections);
    }

    @Test
    void streamingGivesTheOfflineScoresHoweverTheAudioIsCut() {
        float[][] offline = spotter.scores(audio, 16000, KeywordOptions.DEFAULTS);
        List<KeywordDetection> detections = spotter.detect(audio, 16000, KeywordOptions.DEFAULTS);
        assertThat(offline).hasNumberOfRows((audio.length + 1279) / 1280);
        assertThat(detections).extracting(KeywordDetection::keyword).containsExactly("hey_jarvis", "weather", "alexa");
        Random rnd = new Random(33);
        int[] ragged = new int[64];
        for (int i = 0; i < ragged.length; i++) ragged[i] = 1 + rnd.nextInt(rnd.nextBoolean() ? 300 : 9000);
        try (KeywordStream s = spotter.stream(KeywordOptions.DEFAULTS)) {
            for (int[] sizes :
                    List.of(new int[] {1280}, new int[] {1}, ragged, new int[] {audio.length}, new int[] {160, 2560})) {
                Run r = streamed(s, sizes); // finish() resets: each pass starts a new stream
                String cut = sizes.length > 2 ? "ragged pieces" : Arrays.toString(sizes);
                assertThat(r.scores()).hasNumberOfRows(offline.length);
                for (int f = 0; f < offline.length; f++) // a batch of frames may round differently from one frame
                assertThat(r.scores()[f])
                            .as("scores of frame %d in pieces of %s", f, cut)
                            .containsExactly(offline[f], ROUNDING);
                assertThat(r.detections())
                        .as("detections in pieces of %s", cut)
                        .extracting(KeywordDetection::keyword, KeywordDetection::frame)
                        .isEqualTo(detections.stream()
                                .map(d -> org.assertj.core.groups.Tuple.tuple(d.keyword(), d.frame()))
                                .toList());
            }
        }
    }

    @Test
    void detectionsAreAtTheEndOfTheirFrameAndTheFirstFramesScoreZero() {
        float[][] scores = spotter.scores(audio, 16000, KeywordOptions.DEFAULTS);
        for (int f = 0; f < OpenWakeWordSpotter.WARMUP_FRAMES; f++)
            assertThat(scores[f]).containsOnly(0f);
        for (KeywordDetection d : spotter.detect(audio, 16000, KeywordOptions.DEFAULTS)) {
            assertThat(d.seconds()).isEqualTo((d.frame() + 1) * 0.08, org.assertj.core.data.Offset.offset(1e-9));
            int k = spotter.keywords().indexOf(d.keyword());
            assertThat(d.score()).isEqualTo(scores[(int) d.frame()][k]).isGreaterThanOrEqualTo(0.5f);
            assertThat(scores[(int) d.frame() - 1][k]).isLessThan(0.5f); // the first frame of its burst
        }
    }

    @Test
    void keywordSelectionPicksColumnsInTheOrderAsked() {
        float[][] all = spotter.scores(audio, 16000, KeywordOptions.DEFAULTS);
        List<String> pick = List.of("weather", "5_minute_timer", "hey_jarvis");
        KeywordOptions options = KeywordOptions.DEFAULTS.withKeywords(pick);
        float[][] some = spotter.scores(audio, 16000, options);
        for (int f = 0; f < all.length; f++)
            for (int k = 0; k < pick.size(); k++)
                assertThat(some[f][k]) // another heads graph: float rounding may differ in the last bit
                        .as("%s at frame %d", pick.get(k), f)
                        .isCloseTo(
                                all[f][spotter.keywords().indexOf(pick.get(k))],
                                org.assertj.core.data.Offset.offset(1e-6f));
        try (KeywordStream s = spotter.stream(options)) {
            assertThat(s.keywords()).isEqualTo(pick);
        }
        assertThat(spotter.detect(audio, 16000, options))
                .extracting(KeywordDetection::keyword)
                .containsExactly("hey_jarvis", "weather");
        assertThat(spotter.keywords())
                .containsExactly(
                        "hey_jarvis",
                        "hey_mycroft",
                        "hey_rhasspy",
                        "alexa",
                        "1_minute_timer",
                        "5_minute_timer",
                        "10_minute_timer",
                        "20_minute_timer",
                        "30_minute_timer",
                        "1_hour_timer",
                        "weather");
    }

    @Test
    void badInputIsRefused() {
        assertThatThrownBy(() -> spotter.stream(KeywordOptions.DEFAULTS.withKeywords(List.of("hey_siri"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown keyword 'hey_siri'")
                .hasMessageContaining("hey_jarvis, hey_mycroft");
        assertThatThrownBy(() -> spotter.scores(new float[16000], 8000, KeywordOptions.DEFAULTS))
                .hasMessageContaining("16000 Hz, got 8000 Hz");
        try (KeywordStream s = spotter.stream(KeywordOptions.DEFAULTS)) {
            s.accept(new float[3000]);
            float[] bad = new float[100];
            bad[42] = Float.NaN;
            assertThatThrownBy(() -> s.accept(bad)).hasMessageContaining("sample 3042");
            // nothing of the refused call was used: the stream goes on as if it had not been made
            float[][] rest = s.accept(Arrays.copyOf(audio, 20000)).scores();
            try (KeywordStream fresh = spotter.stream(KeywordOptions.DEFAULTS)) {
                fresh.accept(new float[3000]);
                float[][] expected = fresh.accept(Arrays.copyOf(audio, 20000)).scores();
                assertThat(rest).hasNumberOfRows(expected.length);
                for (int f = 0; f < rest.length; f++) assertThat(rest[f]).containsExactly(expected[f], ROUNDING);
            }
        }
        assertThat(spotter.scores(new float[0], 16000, KeywordOptions.DEFAULTS)).isEmpty();
        assertThat(spotter.scores(new float[1], 16000, KeywordOptions.DEFAULTS)).hasNumberOfRows(1);
    }
}
