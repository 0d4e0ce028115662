package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.LongFormOptions;
import org.junit.jupiter.api.Test;

/**
 * Which windows offline audio takes: Whisper's own by default, the VAD's when asked, and the VAD's when words are to
 * be timed and the segmenter is left to the model (the word alignment runs on the VAD's windows only).
 */
class WhisperSegmenterChoiceTest {
    @Test
    void wordTimestampsTakeTheVadsWindowsUnlessWhispersAreAskedFor() {
        AsrOptions d = AsrOptions.DEFAULTS;
        assertThat(WhisperRecognizer.sequential(d)).isTrue();
        assertThat(WhisperRecognizer.sequential(d.withWordTimestamps(true, null)))
                .isFalse();
        assertThat(WhisperRecognizer.sequential(
                        d.withLongForm(d.longForm().withSegmenter(LongFormOptions.Segmenter.VAD))))
                .isFalse();
        assertThat(WhisperRecognizer.sequential(
                        d.withLongForm(d.longForm().withSegmenter(LongFormOptions.Segmenter.WHISPER))))
                .isTrue();
    }
}
