package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Defect 4: durations in milliseconds times the sample rate overflowed int (16000 × 135000 >
 * 2^31), so a huge pad gave negative ends and huge minimums gave more segments, not fewer.
 */
class LongOptionArithmeticTest {
    private static final int W = 512, SR = 16000;
    // 10 silent chunks, 100 of speech, 20 silent, a 5-chunk burst, 30 silent: 5.28 s
    private static final float[] P = probs();
    private static final long SAMPLES = (long) P.length * W;

    private static float[] probs() {
        float[] p = new float[165];
        for (int i = 10; i < 110; i++) p[i] = 0.9f;
        for (int i = 130; i < 135; i++) p[i] = 0.9f;
        return p;
    }

    private static VadOptions options(int minSpeechMs, int minSilenceMs, int padMs) {
        return new VadOptions(0.5, Double.NaN, minSpeechMs, minSilenceMs, padMs, Double.POSITIVE_INFINITY);
    }

    private static List<SpeechSegment> offline(VadOptions o) {
        return SpeechTimestamps.segments(P, W, SAMPLES, SR, o);
    }

    @Test
    void aHugePadCoversTheAudioAndNeverGoesNegative() {
        for (int pad : new int[] {135_000, 1_000_000, Integer.MAX_VALUE}) {
            List<SpeechSegment> s = offline(options(0, 100, pad));
            assertThat(s).as("pad %d ms", pad).hasSize(2);
            assertThat(s.getFirst().startSample()).isZero();
            assertThat(s.getLast().endSample()).isEqualTo(SAMPLES);
            assertThat(s.get(0).endSample())
                    .as("the gap is shared")
                    .isEqualTo(s.get(1).startSample());
        }
    }

    @Test
    void aHugeMinimumSpeechDropsEverything() {
        assertThat(offline(options(250, 100, 30))).hasSize(1); // the 160 ms burst is dropped
        assertThat(offline(options(0, 100, 30))).hasSize(2);
        for (int ms : new int[] {10_000, 135_000, 1_000_000, Integer.MAX_VALUE}) {
            assertThat(offline(options(ms, 100, 30))).as("min-speech %d ms", ms).isEmpty();
        }
    }

    @Test
    void aHugeMinimumSilenceMergesIntoOneSegmentOpenToTheEnd() {
        for (int ms : new int[] {10_000, 135_000, 1_000_000, Integer.MAX_VALUE}) {
            assertThat(offline(options(0, ms, 30)))
                    .as("min-silence %d ms", ms)
                    .containsExactly(new SpeechSegment(10 * W - 480, SAMPLES, SR));
        }
    }

    @Test
    void optionsOutsideTheirRangesAreRejectedWithTheirNames() {
        assertThatThrownBy(() -> new VadOptions(1.5, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threshold must be in (0, 1), got 1.5");
        assertThatThrownBy(() -> new VadOptions(0, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY))
                .hasMessageContaining("threshold must be in (0, 1)");
        assertThatThrownBy(() -> new VadOptions(Double.NaN, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY))
                .hasMessageContaining("threshold must be in (0, 1)");
        assertThatThrownBy(() -> new VadOptions(0.5, 0.5, 250, 100, 30, Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neg-threshold must be below the threshold (0.5)")
                .hasMessageEndingWith("got 0.5");
        assertThatThrownBy(() -> new VadOptions(0.5, -0.1, 250, 100, 30, Double.POSITIVE_INFINITY))
                .hasMessageContaining("neg-threshold");
        assertThatThrownBy(() -> new VadOptions(0.5, Double.NaN, -5, 100, 30, Double.POSITIVE_INFINITY))
                .hasMessageContaining("min-speech-ms must not be negative, got -5");
        assertThatThrownBy(() -> new VadOptions(0.5, Double.NaN, 250, -1, 30, Double.POSITIVE_INFINITY))
                .hasMessageContaining("min-silence-ms must not be negative, got -1");
        assertThatThrownBy(() -> new VadOptions(0.5, Double.NaN, 250, 100, -30, Double.POSITIVE_INFINITY))
                .hasMessageContaining("speech-pad-ms must not be negative, got -30");
        assertThatThrownBy(() -> new VadOptions(0.5, Double.NaN, 250, 100, 30, 0))
                .hasMessageContaining("max-speech-s must be positive");
        assertThatThrownBy(() -> new VadOptions(0.5, Double.NaN, 250, 100, 30, Double.NaN))
                .hasMessageContaining("max-speech-s must be positive");
        assertThat(new VadOptions(0.2, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY).effectiveNegThreshold())
                .isEqualTo(0.05, org.assertj.core.api.Assertions.within(1e-12));
    }
}
