package dev.audioengine.weights;

import static dev.audioengine.weights.GgufTestWriter.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.audioengine.api.tensor.HostTensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Truncated and corrupted files must give a WeightFormatException or a file whose every tensor
 * and metadata value can be read: never another exception, a crash or a huge allocation.
 */
class WeightFileFuzzTest {
    private static final int FLIP_ITERATIONS = 2000;

    @TempDir
    Path dir;

    private static byte[] sampleSafetensors() {
        Random r = new Random(1);
        byte[] a = new byte[4 * 6], b = new byte[2 * 5], c = new byte[4 * 3], d = new byte[7];
        r.nextBytes(a);
        r.nextBytes(b);
        r.nextBytes(c);
        r.nextBytes(d);
        return new SafetensorsTestWriter()
                .metadata("format", "pt")
                .metadata("k\u00e9y", "v\\\"al")
                .add("enc.w", "F32", new long[] {2, 3}, a)
                .add("enc.b", "BF16", new long[] {5}, b)
                .add("ids", "I32", new long[] {1, 3, 1}, c)
                .add("t", "I8", new long[] {7}, d)
                .toBytes();
    }

    private static byte[] sampleGguf() {
        Random r = new Random(2);
        byte[] q = new byte[2 * 34], f = new byte[4 * 3], h = new byte[2 * 4], q4 = new byte[18];
        r.nextBytes(q);
        r.nextBytes(f);
        r.nextBytes(h);
        r.nextBytes(q4);
        return new GgufTestWriter(3)
                .kv("general.architecture", STRING, "whisper")
                .kv("n", UINT32, 6L)
                .kv("eps", FLOAT32, 1e-5f)
                .kv("vocab", ARRAY, new Arr(STRING, List.of("a", "bc", "\u00e9")))
                .kv("scores", ARRAY, new Arr(FLOAT32, List.of(0.5f, -1f)))
                .kv("nested", ARRAY, new Arr(ARRAY, List.of(new Arr(INT16, List.of(1, 2)))))
                .tensor("q", GGML_Q8_0, new long[] {32, 2}, q)
                .tensor("f", GGML_F32, new long[] {3}, f)
                .tensor("h", GGML_F16, new long[] {2, 2}, h)
                .tensor("q4", GGML_Q4_0, new long[] {32}, q4)
                .toBytes();
    }

    @Test
    void everyTruncationIsRejectedCleanly() throws IOException {
        for (byte[] valid : List.of(sampleSafetensors(), sampleGguf())) {
            String name = valid[0] == 'G' ? "t.gguf" : "t.safetensors";
            for (int length = 0; length < valid.length; length++) {
                byte[] cut = Arrays.copyOf(valid, length);
                String outcome =
                        openAndReadEverything(cut, name, "truncated to " + length + " of " + valid.length + " bytes");
                // the samples end with tensor data, so no prefix is a complete file
                assertThat(outcome).as("%s truncated to %d bytes", name, length).isEqualTo("rejected");
            }
            assertThat(openAndReadEverything(valid, name, "intact")).isEqualTo("read");
        }
    }

    @Test
    void randomByteFlipsGiveFormatErrorsOrReadableFiles() throws IOException {
        long seed = System.nanoTime();
        System.out.println("WeightFileFuzzTest flip seed " + seed);
        Random r = new Random(seed);
        int rejected = 0;
        for (byte[] valid : List.of(sampleSafetensors(), sampleGguf())) {
            String name = valid[0] == 'G' ? "f.gguf" : "f.safetensors";
            // roughly where the structure ends and the tensor bytes begin
            int headerEnd =
                    valid[0] == 'G' ? valid.length - 160 : 8 + (int) (valid[0] & 0xff) + ((valid[1] & 0xff) << 8);
            for (int i = 0; i < FLIP_ITERATIONS; i++) {
                byte[] bad = valid.clone();
                int flips = 1 + r.nextInt(4);
                StringBuilder what = new StringBuilder();
                for (int k = 0; k < flips; k++) {
                    // mostly the header, where the structure is; sometimes anywhere
                    int at = r.nextInt(4) == 0
                            ? r.nextInt(bad.length)
                            : r.nextInt(Math.max(1, Math.min(headerEnd, bad.length)));
                    int mask = r.nextInt(8) == 0 ? 0x80 : 1 + r.nextInt(255);
                    bad[at] ^= (byte) mask;
                    what.append(String.format(" byte %d ^= 0x%02x", at, mask));
                }
                String outcome = openAndReadEverything(bad, name, "seed " + seed + ", iteration " + i + ":" + what);
                if (outcome.equals("rejected")) rejected++;
            }
        }
        // flips in the header almost always break something; if nothing is ever rejected the test is not testing
        assertThat(rejected).as("seed %d", seed).isGreaterThan(FLIP_ITERATIONS / 2);
    }

    /** Opens the bytes as a file; "rejected" on WeightFormatException, "read" after touching every value. */
    private String openAndReadEverything(byte[] bytes, String name, String description) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        try (WeightFile f = WeightFiles.open(p)) {
            for (String n : f.names()) {
                HostTensor t = f.get(n);
                float[] values = t.toFloatArray();
                assertThat(values).hasSize((int) t.elements());
            }
            touch(f.metadata());
            return "read";
        } catch (WeightFormatException expected) {
            assertThat(expected.file()).isEqualTo(p);
            assertThat(expected.offset()).isBetween(0L, (long) bytes.length);
            return "rejected";
        } catch (RuntimeException | Error e) {
            fail(
                    description + " threw " + e + " instead of a WeightFormatException; file bytes: "
                            + HexFormat.of().formatHex(bytes),
                    e);
            return "failed";
        }
    }

    private static void touch(Object value) {
        if (value instanceof Map<?, ?> m) m.forEach((k, v) -> touch(v));
        else if (value instanceof List<?> l) l.forEach(WeightFileFuzzTest::touch);
        else assertThat(String.valueOf(value)).isNotNull();
    }
}
