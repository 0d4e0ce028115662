package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.task.LongFormOptions;
import org.junit.jupiter.api.Test;

/** The long-form options' arithmetic, checked on values worked out by hand. */
class WhisperLongFormTest {
    /** whisper.cpp's temperatures: t0, t0 + inc, ... while below 1 + 1e-6, in single precision. */
    @Test
    void temperaturesAreWhisperCpps() {
        assertThat(LongFormOptions.DEFAULTS.temperatures()).containsExactly(0f, 0.2f, 0.4f, 0.6f, 0.8f, 1.0f);
        assertThat(LongFormOptions.DEFAULTS.withTemperatures(0, 0).temperatures())
                .containsExactly(0f);
        assertThat(LongFormOptions.DEFAULTS.withTemperatures(0.5, 0.25).temperatures())
                .containsExactly(0.5f, 0.75f, 1.0f);
        assertThat(LongFormOptions.DEFAULTS.withTemperatures(1, 0.2).temperatures())
                .containsExactly(1f);
        assertThatThrownBy(() -> LongFormOptions.DEFAULTS.withBestOf(9)).hasMessageContaining("best-of");
        assertThatThrownBy(() -> LongFormOptions.DEFAULTS.withThresholds(Double.NaN, 0.6, 2.4, 2.4))
                .hasMessageContaining("logprob-threshold");
    }

    /** openai-whisper's compression ratio: bytes over zlib's (level 6) size; a repetition compresses far. */
    @Test
    void compressionRatioIsZlibsAsOpenaiWhispers() throws Exception {
        String text = " the the the the the the the the the the the the the the the the the the the the";
        byte[] in = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var out = new java.io.ByteArrayOutputStream();
        try (var z = new java.util.zip.DeflaterOutputStream(out, new java.util.zip.Deflater(6))) {
            z.write(in);
        }
        assertThat(WhisperLongForm.compressionRatio(text)).isEqualTo(in.length / (double) out.size());
        assertThat(WhisperLongForm.compressionRatio(text)).isGreaterThan(2.4);
        assertThat(WhisperLongForm.compressionRatio(" Grüezi, Zürich.")).isLessThan(2.4);
        assertThat(WhisperLongForm.compressionRatio("")).isZero();
    }
}
