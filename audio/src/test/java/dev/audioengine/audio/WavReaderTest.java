package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WavReaderTest {

    /** Builds a WAV: format tag, bits, channels, rate and the raw data bytes; extensible wraps the tag in a GUID. */
    static byte[] wav(int format, int bits, int channels, int rate, byte[] data, boolean extensible) {
        int fmtLen = extensible ? 40 : 16;
        ByteBuffer b = ByteBuffer.allocate(12 + 8 + fmtLen + 8 + 8 + data.length + (data.length & 1))
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(b.capacity() - 8).put("WAVE".getBytes());
        b.put("fmt ".getBytes())
                .putInt(fmtLen)
                .putShort((short) (extensible ? 0xFFFE : format))
                .putShort((short) channels)
                .putInt(rate)
                .putInt(rate * channels * bits / 8)
                .putShort((short) (channels * bits / 8))
                .putShort((short) bits);
        if (extensible) {
            b.putShort((short) 22)
                    .putShort((short) bits)
                    .putInt(0)
                    .putShort((short) format)
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
        assertThat(WavReader.decode(wav(1, 8, 1, 8000, new byte[] {(byte) 0, (byte) 128, (byte) 192}, false), "t")
                        .samples())
                .containsExactly(-1f, 0f, 0.5f);
        assertThat(WavReader.decode(wav(1, 16, 1, 8000, le(2, -32768, 16384, 0), false), "t")
                        .samples())
                .containsExactly(-1f, 0.5f, 0f);
        assertThat(WavReader.decode(wav(1, 24, 1, 8000, le(3, -8388608, 4194304, -4194304), false), "t")
                        .samples())
                .containsExactly(-1f, 0.5f, -0.5f);
        assertThat(WavReader.decode(wav(1, 32, 1, 8000, le(4, Integer.MIN_VALUE, 1 << 30), false), "t")
                        .samples())
                .containsExactly(-1f, 0.5f);
    }

    @Test
    void decodesFloatAndExtensibleAndMixesChannels() throws Exception {
        byte[] floats = le(
                4,
                Float.floatToIntBits(0.25f),
                Float.floatToIntBits(-0.75f),
                Float.floatToIntBits(1f),
                Float.floatToIntBits(0f));
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
        assertThatThrownBy(() -> WavReader.decode(new byte[0], "empty.wav"))
                .isInstanceOf(WavFormatException.class)
                .hasMessageContaining("empty.wav")
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> WavReader.decode("hello world, not audio".getBytes(), "x.wav"))
                .hasMessageContaining("x.wav")
                .hasMessageContaining("not a WAV");
        int dataStart = good.length - 8;
        for (int cut = 0; cut < dataStart + 2; cut++) { // every cut before the first whole sample frame
            byte[] part = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> WavReader.decode(part, "cut.wav"))
                    .as("cut at %d", cut)
                    .isInstanceOf(AudioFormatException.class)
                    .hasMessageContaining("cut.wav");
        }
        assertThatThrownBy(() -> WavReader.decode(Arrays.copyOf(good, 30), "cut.wav"))
                .hasMessageContaining("truncated");
        byte[] twelve = wav(1, 12, 1, 16000, le(2, 1), false);
        ByteBuffer.wrap(twelve)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putShort(32, (short) 2); // 12 bits in frames of 2 bytes: consistent
        assertThatThrownBy(() -> WavReader.decode(twelve, "odd.wav"))
                .hasMessageContaining("unsupported encoding")
                .hasMessageContaining("12-bit");
        assertThatThrownBy(() -> WavReader.decode(wav(2, 16, 1, 16000, le(2, 1), false), "adpcm.wav"))
                .hasMessageContaining("format tag 0x2");
        assertThatThrownBy(() -> WavReader.decode(wav(1, 16, 0, 16000, le(2, 1), false), "zero.wav"))
                .hasMessageContaining("0 channels");
        assertThatThrownBy(() -> WavReader.decode(wav(1, 16, 1, 16000, new byte[0], false), "silent.wav"))
                .hasMessageContaining("no audio");
        byte[] hugeFmt = good.clone();
        ByteBuffer.wrap(hugeFmt).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 0x7FFFFFF0);
        assertThatThrownBy(() -> WavReader.decode(hugeFmt, "fmt.wav"))
                .isInstanceOf(WavFormatException.class)
                .hasMessageContaining("fmt");
        byte[] hugeList = good.clone(); // the LIST chunk before the samples claims 4 GB
        ByteBuffer.wrap(hugeList).order(ByteOrder.LITTLE_ENDIAN).putInt(12 + 8 + 16 + 4, 0xFFFFFFF0);
        assertThatThrownBy(() -> WavReader.decode(hugeList, "list.wav"))
                .isInstanceOf(WavFormatException.class)
                .hasMessageContaining("'LIST' declares");
    }

    /** Defect 6: the header's rate was trusted (8 Hz allocated gigabytes, 1 Hz overflowed, 2^31-1 Hz gave "0.00 s"). */
    @Test
    void sampleRatesOutsideOneToSevenHundredSixtyEightKilohertzAreRefused() throws Exception {
        for (long rate : new long[] {0, 1, 8, 999, 768_001, Integer.MAX_VALUE, 0xFFFF_FFFFL}) {
            byte[] bytes = wav(1, 16, 1, 16000, le(2, 1, 2, 3, 4), false);
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(24, (int) rate);
            assertThatThrownBy(() -> WavReader.decode(bytes, "rate.wav"))
                    .as("%d Hz", rate)
                    .isInstanceOf(AudioFormatException.class)
                    .hasMessageContaining("rate.wav")
                    .hasMessageContaining("sample rate of " + rate + " Hz")
                    .hasMessageContaining("1000 Hz .. 768000 Hz");
        }
        for (int rate : new int[] {1000, 8000, 768_000}) {
            assertThat(WavReader.decode(wav(1, 16, 1, rate, le(2, 1, 2), false), "ok.wav")
                            .sampleRate())
                    .isEqualTo(rate);
        }
    }

    /** Defect 5: one NaN made every VAD probability NaN and "0 speech segments", exit 0. */
    @Test
    void nonFiniteSamplesAreAnInputErrorNamingTheFirstOne() {
        float[] values = new float[20000];
        for (int i = 0; i < values.length; i++) values[i] = (float) Math.sin(i * 0.01);
        for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
            float[] v = values.clone();
            v[12345] = bad;
            v[15000] = Float.NaN;
            byte[] data = new byte[4 * v.length];
            ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(v);
            assertThatThrownBy(() -> WavReader.decode(wav(3, 32, 1, 8000, data, false), "nan.wav"))
                    .isInstanceOfSatisfying(NonFiniteSampleException.class, e -> {
                        assertThat(e.sampleIndex()).isEqualTo(12345);
                        assertThat(e.seconds()).isCloseTo(12345 / 8000.0, within(1e-12));
                    })
                    .hasMessageContaining("nan.wav")
                    .hasMessageContaining("sample 12345")
                    .hasMessageContaining("1.543 s");
        }
        // a NaN in one channel of a stereo file: the index is the frame's
        byte[] stereo = le(2, 100, 200, 300, 400);
        byte[] f = new byte[16];
        ByteBuffer.wrap(f)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putFloat(0.5f)
                .putFloat(0.25f)
                .putFloat(0f)
                .putFloat(Float.NaN);
        assertThatThrownBy(() -> WavReader.decode(wav(3, 32, 2, 16000, f, false), "st.wav"))
                .isInstanceOfSatisfying(
                        NonFiniteSampleException.class,
                        e -> assertThat(e.sampleIndex()).isEqualTo(1));
        assertThat(stereo).hasSize(8);
    }

    /** Defect 11: ffmpeg writes 0xFFFFFFFF for the RIFF and data sizes when its output is a pipe. */
    @Test
    void streamedSizeFieldsMeanToTheEndOfTheFile() throws Exception {
        byte[] samples = le(2, -32768, 16384, 0, 8192, -8192);
        byte[] bytes = wav(1, 16, 1, 48000, samples, false);
        ByteBuffer.wrap(bytes)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(4, -1)
                .putInt(bytes.length - samples.length - 4, -1);
        List<String> warnings = new ArrayList<>();
        AudioClip clip = WavReader.decode(bytes, "ffmpeg.wav", warnings::add);
        assertThat(clip.samples()).containsExactly(-1f, 0.5f, 0f, 0.25f, -0.25f);
        assertThat(warnings).isEmpty();
        // an odd tail (half a frame) is dropped with a warning, as at any end of stream
        byte[] odd = Arrays.copyOf(bytes, bytes.length + 1);
        assertThat(WavReader.decode(odd, "ffmpeg.wav", warnings::add).samples()).hasSize(5);
        assertThat(warnings).singleElement().asString().contains("incomplete sample frame");
    }

    /** Defect 11: a truncated WAV was refused where sox and ffmpeg warn and decode what is there. */
    @Test
    void aTruncatedFileDecodesWhatIsThereWithAWarning() throws Exception {
        short[] values = {100, -200, 300, -400, 500, -600};
        byte[] good = wav(1, 16, 2, 16000, le(2, 100, -200, 300, -400, 500, -600), false);
        for (int drop = 1; drop <= 8; drop++) {
            List<String> warnings = new ArrayList<>();
            AudioClip clip = WavReader.decode(Arrays.copyOf(good, good.length - drop), "cut.wav", warnings::add);
            int frames = (12 - drop) / 4;
            assertThat(clip.samples()).as("dropping %d bytes", drop).hasSize(frames);
            for (int f = 0; f < frames; f++)
                assertThat(clip.samples()[f]).isEqualTo((values[2 * f] + values[2 * f + 1]) / 2f / 32768f);
            assertThat(warnings)
                    .as("dropping %d bytes", drop)
                    .anySatisfy(w -> assertThat(w)
                            .contains("cut.wav")
                            .contains("truncated")
                            .contains("declares 12 bytes"));
        }
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(good.length - 12 - 4, 0xFFFFFFF0);
        List<String> warnings = new ArrayList<>();
        assertThat(WavReader.decode(huge, "huge.wav", warnings::add).samples()).hasSize(3);
        assertThat(warnings).singleElement().asString().contains("declares 4294967280 bytes");
    }

    /** A header whose fields disagree with each other, as a file on disk (where other encodings go to libsndfile). */
    private static Path headerFile(Path dir, String name, int format, int bits, int blockAlign, byte[] data)
            throws Exception {
        byte[] bytes = wav(format, 16, 1, 16000, data, false);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(20 + 12, (short) blockAlign).putShort(20 + 14, (short) bits);
        return Files.write(dir.resolve(name), bytes);
    }

    /**
     * 7 bits per sample in frames of 2 bytes: libsndfile takes a byte per sample from the bits and decodes 16-bit data as
     * twice as many 8-bit samples. Fields that contradict each other are the file's error, whichever decoder would run.
     */
    @Test
    void bitsThatDisagreeWithTheBlockAlignAreAnInputError(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path odd = headerFile(dir, "seven.wav", 1, 7, 2, le(2, 1000, -1000, 2000, -2000));
        assertThatThrownBy(() -> AudioStream.open(odd))
                .isInstanceOf(WavFormatException.class)
                .hasMessageContaining("seven.wav")
                .hasMessageContaining("block align 2")
                .hasMessageContaining("7 bits");
        assertThatThrownBy(() -> WavReader.read(odd))
                .isInstanceOf(WavFormatException.class)
                .hasMessageContaining("block align 2");
        try (var in = Files.newInputStream(odd)) {
            assertThatThrownBy(() -> AudioStream.open(in, "pipe", w -> {})).hasMessageContaining("block align 2");
        }
    }

    /** A 16-bit float WAV is a format neither decoder reads: the message names it, not libsndfile's "internal error". */
    @Test
    void aFloatWidthNoDecoderReadsIsNamed(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path half = headerFile(dir, "half.wav", 3, 16, 2, le(2, 0x3C00, 0xBC00));
        assertThatThrownBy(() -> AudioStream.open(half))
                .isInstanceOf(AudioFormatException.class)
                .hasMessageContaining("half.wav")
                .hasMessageContaining("16-bit float")
                .hasMessageNotContaining("cannot read it either");
    }
}
