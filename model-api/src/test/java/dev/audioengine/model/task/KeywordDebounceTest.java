package dev.audioengine.model.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The debounce's contract: one detection per burst, the refractory period, keywords apart, the edges. */
class KeywordDebounceTest {
    private static final double FRAME = 0.08;

    /** Detections as "keyword@frame" over rows of scores. */
    private static List<String> run(KeywordOptions options, List<String> keywords, float[][] rows) {
        KeywordDebounce d = new KeywordDebounce(keywords, options, FRAME);
        List<String> out = new ArrayList<>();
        for (float[] r : rows) for (KeywordDetection k : d.accept(r)) out.add(k.keyword() + "@" + k.frame());
        return out;
    }

    /** One keyword's scores: {@code high} frames at 0.9 from each start, 0.1 elsewhere. */
    private static float[][] bursts(int frames, int high, int... starts) {
        float[][] rows = new float[frames][1];
        for (float[] r : rows) r[0] = 0.1f;
        for (int s : starts) for (int i = s; i < s + high && i < frames; i++) rows[i][0] = 0.9f;
        return rows;
    }

    @Test
    void aBurstIsOneDetectionAtItsFirstFrame() {
        assertThat(run(KeywordOptions.DEFAULTS, List.of("a"), bursts(100, 6, 10)))
                .containsExactly("a@10");
    }

    @Test
    void aScoreHighForLongerThanTheRefractoryPeriodStillFiresOnce() {
        // 60 frames (4.8 s) above the threshold, refractory 2 s (25 frames): re-arming needs a dip below it
        assertThat(run(KeywordOptions.DEFAULTS, List.of("a"), bursts(100, 60, 10)))
                .containsExactly("a@10");
    }

    @Test
    void burstsWithinTheRefractoryPeriodAreOneDetectionAndLaterOnesAnother() {
        // 2 s at 80 ms is 25 frames: a burst 20 frames after the first is the same utterance, one 25 after is not
        assertThat(run(KeywordOptions.DEFAULTS, List.of("a"), bursts(200, 3, 10, 30, 55, 80)))
                .containsExactly("a@10", "a@55", "a@80");
        assertThat(new KeywordDebounce(List.of("a"), KeywordOptions.DEFAULTS, FRAME).refractoryFrames())
                .isEqualTo(25);
    }

    @Test
    void aZeroRefractoryPeriodReArmsAtTheFirstDip() {
        assertThat(run(KeywordOptions.DEFAULTS.withRefractorySeconds(0), List.of("a"), bursts(40, 2, 5, 8, 11)))
                .containsExactly("a@5", "a@8", "a@11");
    }

    @Test
    void theThresholdIsInclusive() {
        float[][] rows = {{0.49f}, {0.5f}, {0.1f}};
        assertThat(run(KeywordOptions.DEFAULTS, List.of("a"), rows)).containsExactly("a@1");
        assertThat(run(KeywordOptions.DEFAULTS.withThreshold(0.51), List.of("a"), rows))
                .isEmpty();
    }

    @Test
    void keywordsAreDebouncedApart() {
        float[][] rows = new float[60][2];
        rows[10][0] = 0.9f; // a
        rows[12][1] = 0.8f; // b, two frames later: its own detection
        rows[20][0] = 0.9f; // a again within its refractory period: nothing
        assertThat(run(KeywordOptions.DEFAULTS, List.of("a", "b"), rows)).containsExactly("a@10", "b@12");
    }

    @Test
    void detectionsCarryTheEndOfTheirFrameAndTheScore() {
        KeywordDebounce d = new KeywordDebounce(List.of("a"), KeywordOptions.DEFAULTS, FRAME);
        for (int i = 0; i < 7; i++) assertThat(d.accept(new float[] {0f})).isEmpty();
        KeywordDetection k = d.accept(new float[] {0.75f}).getFirst();
        assertThat(k.frame()).isEqualTo(7);
        assertThat(k.seconds()).isCloseTo(8 * FRAME, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(k.score()).isEqualTo(0.75f);
        d.reset();
        assertThat(d.frames()).isZero();
        assertThat(d.accept(new float[] {0.75f}))
                .singleElement()
                .extracting(KeywordDetection::frame)
                .isEqualTo(0L);
    }

    @Test
    void badOptionsAndRowsAreRefused() {
        assertThatThrownBy(() -> KeywordOptions.DEFAULTS.withThreshold(1.0)).hasMessageContaining("threshold");
        assertThatThrownBy(() -> KeywordOptions.DEFAULTS.withThreshold(Double.NaN))
                .hasMessageContaining("threshold");
        assertThatThrownBy(() -> KeywordOptions.DEFAULTS.withRefractorySeconds(-1))
                .hasMessageContaining("refractory");
        assertThatThrownBy(() -> KeywordOptions.DEFAULTS.withKeywords(List.of("a", "a")))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> KeywordOptions.DEFAULTS.withKeywords(List.of(" ")))
                .hasMessageContaining("blank");
        KeywordDebounce d = new KeywordDebounce(List.of("a", "b"), KeywordOptions.DEFAULTS, FRAME);
        assertThatThrownBy(() -> d.accept(new float[1])).hasMessageContaining("1 scores for 2 keywords");
    }
}
