package dev.audioengine.audio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FLAC encoder checked by two independent decoders: libsndfile (libFLAC, through the audio module) and sox,
 * which both verify the frames' CRCs; sox checks the STREAMINFO MD5 too. Fresh random signals of odd lengths: noise
 * (verbatim wins), smooth tones (the fixed predictors win), silence (constant subframes), full-scale extremes
 * (the residual's largest values), a block and one sample more.
 */
class FlacEncoderTest {
    @TempDir
    Path dir;

    @Test
    void libsndfileAndSoxDecodeTheSamplesExactly() throws Exception {
        Random random = new Random();
        long seed = random.nextLong();
        random = new Random(seed);
        int[] lengths = {0, 1, 7, 4095, 4096, 4097, 3 * 4096 + 123, 20_000 + random.nextInt(20_000)};
        int[] rates = {24_000, 16_000, 44_100, 22_051, 100_000, 96_001};
        for (int i = 0; i < lengths.length; i++) {
            for (int kind = 0; kind < 4; kind++) {
                short[] s = signal(kind, lengths[i], random);
                int rate = rates[(i + kind) % rates.length];
                byte[] flac = FlacEncoder.encode(s, rate);
                Path f = dir.resolve("t" + i + "-" + kind + ".flac");
                Files.write(f, flac);
                String what = "seed " + seed + ", " + s.length + " samples of kind " + kind + " at " + rate + " Hz";
                if (s.length > 0) {
                    try (AudioStream in = AudioStream.open(f)) {
                        assertThat(in.sampleRate()).as(what).isEqualTo(rate);
                        AudioClip clip = in.readAll();
                        short[] back = new short[clip.samples().length];
                        for (int k = 0; k < back.length; k++) back[k] = (short) Math.round(clip.samples()[k] * 32768f);
                        assertThat(back).as(what + " via libsndfile").isEqualTo(s);
                    }
                }
                assertThat(sox(f)).as(what + " via sox").isEqualTo(s);
            }
        }
    }

    @Test
    void speechLikeAudioCompresses() {
        short[] s = signal(1, 48_000, new Random());
        assertThat(FlacEncoder.encode(s, 24_000).length).isLessThan(s.length * 2 * 3 / 4);
    }

    private static short[] signal(int kind, int n, Random r) {
        short[] s = new short[n];
        double f = 50 + r.nextDouble() * 2000, phase = r.nextDouble() * 6;
        for (int i = 0; i < n; i++) {
            s[i] = (short)
                    switch (kind) {
                        case 0 -> r.nextInt(65536) - 32768;
                        case 1 ->
                            Math.round(12000
                                            * Math.sin(phase + 2 * Math.PI * f * i / 24000)
                                            * (0.5 + 0.5 * Math.sin(i / 3000.0))
                                    + r.nextGaussian() * 30);
                        case 2 -> i < n / 2 ? 0 : (i % 2 == 0 ? 32767 : -32768);
                        default -> 0;
                    };
        }
        return s;
    }

    /** What sox decodes: raw signed 16-bit little-endian; sox fails on a bad CRC or MD5. */
    private static short[] sox(Path flac) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "sox", "-V1", flac.toString(), "-t", "raw", "-e", "signed-integer", "-b", "16", "-L", "-")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        p.getInputStream().transferTo(raw);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("sox's exit status for " + flac).isZero();
        ByteBuffer b = ByteBuffer.wrap(raw.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        short[] out = new short[b.remaining() / 2];
        for (int i = 0; i < out.length; i++) out[i] = b.getShort();
        return out;
    }
}
