package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

/** Two long-form results compared window by window: the same decisions, the statistics equal or within a tolerance. */
final class LongFormResults {
    private LongFormResults() {}

    /**
     * The same windows, seeks, temperatures, prompts, tokens and segments; the probabilities, mean log-probability
     * and no-speech probability bit for bit when {@code tolerance} is 0, else within it (relative to the mean
     * log-probability's size for that one).
     */
    static void assertSameWindows(
            WhisperLongForm.Result actual, WhisperLongForm.Result expected, String what, double tolerance) {
        assertThat(actual.windows()).as(what).hasSameSizeAs(expected.windows());
        for (int i = 0; i < expected.windows().size(); i++) {
            WhisperLongForm.Window a = actual.windows().get(i),
                    e = expected.windows().get(i);
            String at = what + ", window " + i;
            assertThat(a.seek()).as(at).isEqualTo(e.seek());
            assertThat(a.seekDelta()).as(at).isEqualTo(e.seekDelta());
            assertThat(a.temperature()).as(at).isEqualTo(e.temperature());
            assertThat(a.prompt()).as(at).isEqualTo(e.prompt());
            assertThat(a.tokens()).as(at).isEqualTo(e.tokens());
            assertThat(a.segments()).as(at).isEqualTo(e.segments());
            double average = e.averageLogProbability();
            if (tolerance == 0 || !Double.isFinite(average)) {
                assertThat(Double.doubleToRawLongBits(a.averageLogProbability()))
                        .as(at + " mean log-probability")
                        .isEqualTo(Double.doubleToRawLongBits(average));
            } else {
                assertThat(a.averageLogProbability())
                        .as(at + " mean log-probability")
                        .isCloseTo(average, within(tolerance * Math.max(1, Math.abs(average))));
            }
            if (tolerance == 0) {
                assertThat(bits(a.probabilities())).as(at + " probabilities").isEqualTo(bits(e.probabilities()));
                assertThat(a.noSpeechProbability()).as(at).isEqualTo(e.noSpeechProbability());
            } else {
                for (int k = 0; k < e.probabilities().length; k++)
                    assertThat(a.probabilities()[k])
                            .as(at + ", token " + k)
                            .isCloseTo(e.probabilities()[k], within((float) tolerance));
                assertThat(a.noSpeechProbability()).as(at).isCloseTo(e.noSpeechProbability(), within(tolerance));
            }
        }
    }

    static List<Integer> bits(float[] values) {
        return java.util.stream.IntStream.range(0, values.length)
                .mapToObj(i -> Float.floatToRawIntBits(values[i]))
                .toList();
    }
}
