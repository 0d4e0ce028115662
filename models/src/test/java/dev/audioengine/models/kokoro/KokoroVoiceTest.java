package dev.audioengine.models.kokoro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.ModelFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KokoroVoiceTest {
    @Test
    void styleIsRowPhonemeCountMinusOne() throws Exception {
        KokoroVoice v = KokoroVoice.read("af_heart", KokoroFixtures.voice("af_heart"));
        assertThat(v.name()).isEqualTo("af_heart");
        // float32 values at [row, 0, col] of af_heart.bin, read with Python's struct ('<f'), as bit patterns
        assertThat(v.style(1)).hasSize(256);
        assertThat(Float.floatToRawIntBits(v.style(1)[0])).isEqualTo(0xbe82325c);
        assertThat(Float.floatToRawIntBits(v.style(1)[255])).isEqualTo(0xbcdc08a3);
        assertThat(Float.floatToRawIntBits(v.style(10)[0])).isEqualTo(0xbe715b48);
        assertThat(Float.floatToRawIntBits(v.style(10)[128])).isEqualTo(0xbdc17035);
        assertThat(Float.floatToRawIntBits(v.style(510)[255])).isEqualTo(0x3e11ca37);
        assertThatThrownBy(() -> v.style(0)).hasMessageContaining("1 to 510");
        assertThatThrownBy(() -> v.style(511)).hasMessageContaining("1 to 510");
    }

    @Test
    void synthesizedPackReadsLittleEndianRows(@TempDir Path dir) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(510 * 256 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 510 * 256; i++) b.putFloat(i / 256 + (i % 256) / 1000f);
        Path f = Files.write(dir.resolve("xx_test.bin"), b.array());
        KokoroVoice v = KokoroVoice.read("xx_test", f);
        assertThat(v.style(3)[0]).isEqualTo(2f);
        assertThat(v.style(3)[7]).isEqualTo(2 + 7 / 1000f);
        assertThat(v.name()).isEqualTo("xx_test");
    }

    @Test
    void wrongSizeOrNonFiniteIsRejected(@TempDir Path dir) throws Exception {
        Path shorter = Files.write(dir.resolve("short.bin"), new byte[510 * 256 * 4 - 4]);
        assertThatThrownBy(() -> KokoroVoice.read("short", shorter))
                .isInstanceOf(ModelFormatException.class)
                .hasMessageContaining("522240 bytes");
        ByteBuffer b = ByteBuffer.allocate(510 * 256 * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.putFloat(4 * 1000, Float.NaN);
        Path nan = Files.write(dir.resolve("nan.bin"), b.array());
        assertThatThrownBy(() -> KokoroVoice.read("nan", nan)).hasMessageContaining("value 1000");
    }
}
