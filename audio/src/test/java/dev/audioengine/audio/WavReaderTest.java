package dev.audioengine.audio;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class WavReaderTest {

    /** Builds a WAV: format tag, bits, channels, rate and the raw data bytes; extensible wraps the tag in a GUID. */
    static byte[] wav(int format, int bits, int channels, int rate, byte[] data, boolean extensible) {
        int fmtLen = extensible ? 40 : 16;
        ByteBuffer b = ByteBuffer.allocate(12 + 8 + fmtLen + 8 + 8 + data.length + (data.length & 1)).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(b.capacity() - 8).put("WAVE".getBytes());
        b.put("fmt ".getBytes()).putInt(fmtLen).putShort((short) (extensible ? 0xFFFE : format)).putShort((short) channels)
                .putInt(rate).putInt(rate * channels * bits / 8).putShort((short) (channels * bits / 8)).putShort((short) bits);
        if (extensible) {
            b.putShort((short) 22).putShort((short) bits).putInt(0).putShort((short) format)
                    .put(new byte[] {0, 0, 0, 0, 0x10, 0, (byte) 0x80, 0, 0, (byte) 0xAA, 0, 0x38, (byte) 0x9B, 0x71});
        }
        b.put("LIST".getBytes()).putInt(0); // an unrelated chunk the reader must skip
        b.put("data".getBytes()).putInt(data.length).put(data);
        return b.array();
    }

    static byte[] le(int bytesPer, long... values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (long v : values) for (int i = 0; i < bytesPer; i++) out.write((int) (v >>> (8 * i)));
        return out.toByteArray();
    }

    @Test
    void decodesEveryIntegerWidthToTheSameScale() throws Exception {
        assertThat(WavReader.decode(wav(1, 8, 1, 8000, new byte[] {(byte) 0, (byte) 128, (byte) 192}, false), "t").samples())
                .containsExactly(-1f, 0f, 0.5f);
        assertThat(WavReader.decode(wav(1, 16, 1, 8000, le(2, -32768, 16384, 0), false), "t").samples())
                .containsExactly(-1f, 0.5f, 0f);
        assertThat(WavReader.decode(wav(1, 24, 1, 8000, le(3, -8388608, 4194304, -4194304), false), "t").samples())
                .containsExactly(-1f, 0.5f, -0.5f);
        assertThat(WavReader.decode(wav(1, 32, 1, 8000, le(4, Integer.MIN_VALUE, 1 << 30), false), "t").samples())
                .containsExactly(-1f, 0.5f);
    }

    @Test
    void decodesFloatAndExtensibleAndMixesChannels() throws Exception {
        byte[] floats = le(4, Float.floatToIntBits(0.25f), Float.floatToIntBits(-0.75f), Float.floatToIntBits(1f), Float.floatToIntBits(0f));
        AudioClip stereo = WavReader.decode(wav(3, 32, 2, 44100, floats, false), "t");
        assertThat(stereo.samples()).containsExactly(-0.25f, 0.5f);
        assertThat(stereo.channels()).isEqualTo(2);
        assertThat(stereo.sampleRate()).isEqualTo(44100);
        AudioClip ext = WavReader.decode(wav(1, 16, 3, 48000, le(2, 3000, 6000, 9000), true), "t");
        assertThat(ext.samples()[0]).isCloseTo(6000 / 32768f, within(1e-7f));
        AudioClip extFloat = WavReader.decode(wav(3, 32, 1, 16000, floats, true), "t");
        assertThat(extFloat.samples()).containsExactly(0.25f, -0.75f, 1f, 0f);
    }

    @Test
    void readsARealRecordingWhenInstalled() throws Exception {
        Path f = Path.of("/usr/share/pocketsphinx/test/data/cards/001.wav");
        if (!Files.exists(f)) return;
        AudioClip c = WavReader.read(f);
        assertThat(c.sampleRate()).isEqualTo(16000);
        assertThat(c.samples()).hasSize(17526);
        double peak = 0;
        for (float v : c.samples()) peak = Math.max(peak, Math.abs(v));
        assertThat(peak).isBetween(0.01, 1.0);
    }

    @Test
    void hostileFilesFailWithTheFileNameAndTheProblem() {
        byte[] good = wav(1, 16, 1, 16000, le(2, 1, 2, 3, 4), false);
        assertThatThrownBy(() -> WavReader.decode(new byte[0], "empty.wav")).isInstanceOf(WavFormatException.class)
                .hasMessageContaining("empty.wav").hasMessageContaining("empty");
        assertThatThrownBy(() -> WavReader.decode("hello world, not audio".getBytes(), "x.wav"))
                .hasMessageContaining("x.wav").hasMessageContaining("not a WAV");
        assertThatThrownBy(() -> WavReader.decode(Arrays.copyOf(good, good.length - 3), "cut.wav"))
                .isInstanceOf(WavFormatException.class).hasMessageContaining("cut.wav").hasMessageContaining("truncated");
        for (int cut = 0; cut < good.length; cut++) {
            byte[] part = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> WavReader.decode(part, "cut.wav")).as("cut at %d", cut).isInstanceOf(WavFormatException.class);
        }
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(good.length - 8 - 4, 0xFFFFFFF0);
        assertThatThrownBy(() -> WavReader.decode(huge, "huge.wav")).isInstanceOf(WavFormatException.class).hasMessageContaining("declares");
        assertThatThrownBy(() -> WavReader.decode(wav(1, 12, 1, 16000, le(2, 1), false), "odd.wav"))
                .hasMessageContaining("unsupported encoding").hasMessageContaining("12-bit");
        assertThatThrownBy(() -> WavReader.decode(wav(2, 16, 1, 16000, le(2, 1), false), "adpcm.wav"))
                .hasMessageContaining("format tag 0x2");
        assertThatThrownBy(() -> WavReader.decode(wav(1, 16, 0, 16000, le(2, 1), false), "zero.wav"))
                .hasMessageContaining("0 channels");
        assertThatThrownBy(() -> WavReader.decode(wav(1, 16, 1, 16000, new byte[0], false), "silent.wav"))
                .hasMessageContaining("no audio");
    }
}
