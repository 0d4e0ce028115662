package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EncoderTapsTest {
    @Test
    void keepsOnlyTapsThatReadInputAndPadsOnlyWhenAKeptTapReadsPadding() {
        assertThat(EncoderTaps.of(4, 1)).isEqualTo(new EncoderTaps(0, 3, true, 4, 1));
        assertThat(EncoderTaps.of(4, 2)).isEqualTo(new EncoderTaps(0, 3, true, 4, 2));
        assertThat(EncoderTaps.of(2, 2)).isEqualTo(new EncoderTaps(1, 2, false, 2, 2)); // tap 0 only ever reads padding
        assertThat(EncoderTaps.of(1, 1)).isEqualTo(new EncoderTaps(1, 1, false, 1, 1)); // the middle tap alone
        assertThat(EncoderTaps.of(3, 2)).isEqualTo(new EncoderTaps(0, 3, true, 3, 2));
        assertThat(EncoderTaps.of(4, 2).outputFrames()).isEqualTo(2);
        assertThat(EncoderTaps.of(1, 1).outputFrames()).isEqualTo(1);
    }
}
