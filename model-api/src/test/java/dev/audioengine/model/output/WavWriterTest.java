package dev.audioengine.model.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The float WAV read back by sox (the independent reader): rate, channels, length and every sample. */
class WavWriterTest {
    @Test
    void soxReadsBackTheExactSamples(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/sox")), "sox is not installed (Debian package sox)");
        Random rnd = new Random(7);
        for (int n : new int[] {0, 1, 12345}) {
            float[] x = new float[n];
            for (int i = 0; i < n; i++)
                x[i] = Math.clamp((float) rnd.nextGaussian() * 0.3f, -1f, 1f); // sox clips beyond full scale
            if (n > 2) {
                x[0] = 1f;
                x[1] = -1f;
                x[2] = Float.MIN_VALUE;
            }
            Path wav = dir.resolve("a" + n + ".wav"), raw = dir.resolve("a" + n + ".f32");
            WavWriter.writeFloat(wav, x, 8000);
            assertThat(run("sox", "--i", "-r", wav.toString()).strip()).isEqualTo("8000");
            assertThat(run("sox", "--i", "-c", wav.toString()).strip()).isEqualTo("1");
            assertThat(run("sox", "--i", "-s", wav.toString()).strip()).isEqualTo(Integer.toString(n));
            run("sox", "-D", wav.toString(), "-t", "f32", "-e", "floating-point", "-L", raw.toString());
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(raw)).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(b.remaining()).isEqualTo(4 * n);
            // sox holds samples as 32-bit integers inside: its float -> int -> float trip moves a sample by up to about
            // 2^-24
            for (int i = 0; i < n; i++) {
                assertThat(b.getFloat())
                        .as("sample %d", i)
                        .isCloseTo(x[i], org.assertj.core.api.Assertions.within(1e-7f));
            }
        }
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("%s: %s", String.join(" ", cmd), out).isZero();
        return out;
    }
}
