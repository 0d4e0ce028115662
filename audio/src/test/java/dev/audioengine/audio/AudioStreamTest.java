package dev.audioengine.audio;

import static dev.audioengine.audio.WavReaderTest.le;
import static dev.audioengine.audio.WavReaderTest.wav;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stream against the whole-clip path it must equal, read in random pieces, and its checks on the way. */
class AudioStreamTest {
    @TempDir
    Path dir;

    @Test
    void readingInRandomPiecesGivesTheWholeClipResampled() throws Exception {
        Path f = Sox.noiseWav(dir, "s.wav", 44100, 2, 3.3333);
        AudioClip whole = WavReader.read(f);
        float[] expected = Resampler.resample(whole.samples(), 44100, 16000);
        Random r = new Random(7);
        try (AudioStream in = AudioStream.open(f).resampleTo(16000)) {
            assertThat(in.sourceRate()).isEqualTo(44100);
            assertThat(in.sampleRate()).isEqualTo(16000);
            assertThat(in.channels()).isEqualTo(2);
            assertThat(in.sourceFrames()).hasValue(whole.samples().length);
            assertThat(in.durationSeconds().orElseThrow()).isEqualTo(whole.samples().length / 44100.0);
            assertThat(in.length()).hasValue(expected.length);
            float[] got = new float[expected.length + 10];
            int at = 0;
            for (int n; (n = in.read(got, at, Math.min(1 + r.nextInt(9000), got.length - at))) >= 0; ) {
                assertThat(n).isPositive();
                at += n;
            }
            assertThat(Arrays.copyOf(got, at)).containsExactly(expected);
            assertThat(in.samplesRead()).isEqualTo(expected.length);
            assertThat(in.decodeNanos()).isPositive();
            assertThat(in.read(got, 0, 10)).isEqualTo(-1);
            assertThatThrownBy(() -> in.resampleTo(8000)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aNonFiniteSampleFailsTheReadThatMeetsIt() throws Exception {
        float[] v = new float[50_000];
        v[30_001] = Float.POSITIVE_INFINITY;
        byte[] data = new byte[4 * v.length];
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(v);
        try (AudioStream in = AudioStream.open(
                        new ByteArrayInputStream(wav(3, 32, 1, 48000, data, false)), "pipe", w -> {})
                .resampleTo(16000)) {
            float[] buf = new float[1000];
            long read = 0;
            try {
                for (int n; (n = in.read(buf, 0, buf.length)) >= 0; ) read += n;
            } catch (NonFiniteSampleException e) {
                assertThat(e.sampleIndex()).isEqualTo(30_001);
                assertThat(e.getMessage())
                        .contains("pipe")
                        .contains("+Infinity")
                        .contains("0.625 s");
                assertThat(read)
                        .as("samples before the block that holds it were delivered")
                        .isGreaterThan(8000);
                return;
            }
            throw new AssertionError("no exception after " + read + " samples");
        }
    }

    @Test
    void aStreamShorterThanItsHeaderWarnsAtItsEnd() throws Exception {
        byte[] good = wav(1, 16, 1, 16000, le(2, 1, 2, 3, 4, 5, 6, 7, 8), false);
        List<String> heard = new ArrayList<>();
        try (AudioStream in =
                AudioStream.open(new ByteArrayInputStream(Arrays.copyOf(good, good.length - 5)), "pipe", heard::add)) {
            assertThat(in.readAll().samples()).hasSize(5);
            assertThat(heard).hasSize(2).allSatisfy(w -> assertThat(w).startsWith("pipe: "));
            assertThat(heard.get(0))
                    .contains("truncated")
                    .contains("declares 16 bytes")
                    .contains("ended after 11");
            assertThat(heard.get(1)).contains("incomplete sample frame");
            assertThat(in.warnings()).isEqualTo(heard);
        }
    }
}
