package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.LongFormOptions;
import org.junit.jupiter.api.Test;

/** What Moonshine refuses rather than ignores: Whisper's options, each with a message naming the family that has them. */
class MoonshineOptionsTest {
    private static final AsrOptions D = AsrOptions.DEFAULTS;

    @Test
    void theDefaultsAndTheVadSegmenterAreMoonshinesOwn() {
        assertThatCode(() -> MoonshineRecognizer.englishOnly(D)).doesNotThrowAnyException();
        assertThatCode(() -> MoonshineRecognizer.englishOnly(
                        D.withLongForm(D.longForm().withSegmenter(LongFormOptions.Segmenter.VAD))))
                .doesNotThrowAnyException();
    }

    @Test
    void whispersLongFormSettingsAreRefused() {
        assertThatThrownBy(() -> MoonshineRecognizer.englishOnly(
                        D.withLongForm(D.longForm().withSegmenter(LongFormOptions.Segmenter.WHISPER))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whisper family");
        assertThatThrownBy(() -> MoonshineRecognizer.englishOnly(D.withLongForm(
                        D.longForm().withTemperatures(0.4, D.longForm().temperatureIncrement()))))
                .hasMessageContaining("temperature");
        assertThatThrownBy(() -> MoonshineRecognizer.englishOnly(
                        D.withLongForm(D.longForm().withConditionOnPrevious(false))))
                .hasMessageContaining("conditioning");
        assertThatThrownBy(() -> MoonshineRecognizer.englishOnly(D.withPrompt("Dashwood")))
                .hasMessageContaining("prompt");
    }
}
