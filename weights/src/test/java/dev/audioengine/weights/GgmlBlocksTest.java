package dev.audioengine.weights;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engine's dequantization of ggml's block types against ggml itself: ggml-blocks (scripts/peers/ggml-blocks.c,
 * linked against the ggml of whisper.cpp's npm-shipped source by scripts/peers/whisper-cpp-build) quantizes fresh
 * random values with ggml's own quantizer and dequantizes them with ggml's own {@code to_float}; the engine's
 * {@link GgmlBlocks} must give the same floats from the same block bytes. The values are rows of several blocks with
 * what trips a block format up: scales from 1e-3 to 1e2 per row, an all-zero block, a constant block, one large
 * outlier, negative-only and positive-only blocks.
 */
class GgmlBlocksTest {
    static Path blocksTool;

    @BeforeAll
    static void build() throws Exception {
        Path script = Path.of("..", "scripts", "peers", "whisper-cpp-build")
                .toAbsolutePath()
                .normalize();
        Process p = new ProcessBuilder(script.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        boolean ok = p.waitFor(30, TimeUnit.MINUTES) && p.exitValue() == 0;
        if (!ok && Boolean.getBoolean("audioengine.test.skipWhisperCpp"))
            Assumptions.abort("whisper.cpp could not be built; skipped as -Daudioengine.test.skipWhisperCpp=true asks");
        assertThat(ok)
                .as(
                        "ggml built by %s (needs npm, cmake and a C/C++ compiler; -Daudioengine.test.skipWhisperCpp=true"
                                + " skips this test where they are missing)",
                        script)
                .isTrue();
        blocksTool = Path.of(out).resolveSibling("ggml-blocks");
    }

    @ParameterizedTest
    @EnumSource(names = {"Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K"})
    void dequantizesAsGgmlDoes(GgmlType type, @TempDir Path dir) throws Exception {
        long seed = new SplittableRandom().nextLong();
        int per = GgmlBlocks.blockValues(type);
        int row = per * 3, rows = 7; // odd block and row counts
        float[] x = values(seed, row, rows, per);
        Path blocks = dir.resolve("blocks.bin");
        float[] theirs = ggml(type, row, x, blocks);
        byte[] raw = Files.readAllBytes(blocks);
        assertThat(raw.length).isEqualTo(x.length / per * GgmlBlocks.blockBytes(type));
        float[] ours = new float[x.length];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(raw.length + 3L).asSlice(3); // unaligned, as in a ggml file
            MemorySegment.copy(raw, 0, src, ValueLayout.JAVA_BYTE, 0, raw.length);
            MemorySegment dst = arena.allocate(4L * x.length + 4);
            GgmlBlocks.dequantize(type, src, 0, x.length / per, dst, 4);
            MemorySegment.copy(dst, ValueLayout.JAVA_FLOAT_UNALIGNED, 4, ours, 0, x.length);
        }
        double worst = 0, scale = 0;
        for (int i = 0; i < x.length; i++) {
            worst = Math.max(worst, Math.abs(ours[i] - theirs[i]) / Math.max(Math.abs(theirs[i]), 1e-30));
            scale = Math.max(scale, Math.abs(theirs[i]));
        }
        System.err.printf("%s seed %d: largest relative difference to ggml %.2e%n", type, seed, worst);
        // ggml may fuse a multiply and an add (one rounding fewer): a few units in the last place, never more
        for (int i = 0; i < x.length; i++)
            assertThat((double) ours[i])
                    .as("%s value %d (block %d), seed %d", type, i, i / per, seed)
                    .isCloseTo(
                            theirs[i], org.assertj.core.data.Offset.offset(4 * Math.ulp(Math.abs(theirs[i])) + 1e-30));
        // and the quantization really happened: ggml's values are not the inputs
        double err = 0, norm = 0;
        for (int i = 0; i < x.length; i++) {
            err += (theirs[i] - x[i]) * (theirs[i] - x[i]);
            norm += x[i] * x[i];
        }
        assertThat(Math.sqrt(err / norm)).as("quantization error of " + type).isBetween(1e-4, 0.6);
    }

    /**
     * The engine's own Q4_1, Q5_0 and Q5_1 quantizers (engine-api's BlockQuantization, which conversions and the
     * reference use) write ggml's {@code quantize_row_*_ref} bytes for the same values: the same scales, minimums,
     * fifth bits and nibbles, on the same awkward rows.
     */
    @ParameterizedTest
    @EnumSource(names = {"Q4_1", "Q5_0", "Q5_1"})
    void quantizesAsGgmlDoes(GgmlType type, @TempDir Path dir) throws Exception {
        long seed = new SplittableRandom().nextLong();
        int per = GgmlBlocks.blockValues(type);
        int row = per * 3, rows = 7;
        float[] x = values(seed, row, rows, per);
        Path blocks = dir.resolve("blocks.bin");
        ggml(type, row, x, blocks);
        byte[] theirs = Files.readAllBytes(blocks);
        byte[] ours;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(type.dtype.bytesFor(x.length));
            dev.audioengine.api.tensor.BlockQuantization.quantize(type.dtype, x, 0, x.length, dst, 0);
            ours = dst.toArray(ValueLayout.JAVA_BYTE);
        }
        for (int i = 0; i < theirs.length; i++)
            assertThat(ours[i])
                    .as(
                            "%s byte %d (block %d, byte %d of it), seed %d",
                            type, i, i / type.dtype.blockBytes(), i % type.dtype.blockBytes(), seed)
                    .isEqualTo(theirs[i]);
    }

    /** Rows of {@code row} values: Gaussian at a scale per row, with the cases that trip a block format up. */
    static float[] values(long seed, int row, int rows, int per) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[row * rows];
        for (int j = 0; j < rows; j++) {
            double scale = Math.pow(10, -3 + 5 * r.nextDouble());
            for (int i = 0; i < row; i++) x[j * row + i] = (float) (scale * gaussian(r));
        }
        java.util.Arrays.fill(x, 0, per, 0f); // an all-zero block
        java.util.Arrays.fill(x, per, 2 * per, 0.37f); // a constant one
        x[row + 5] = 1000f; // an outlier
        for (int i = 2 * row; i < 2 * row + per; i++) x[i] = -Math.abs(x[i]); // negative only
        for (int i = 3 * row; i < 3 * row + per; i++) x[i] = Math.abs(x[i]); // positive only
        return x;
    }

    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    private static float[] ggml(GgmlType type, int row, float[] x, Path blocks)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(blocksTool.toString(), "" + type.id, "" + row, blocks.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        ByteBuffer in = ByteBuffer.allocate(4 * x.length).order(ByteOrder.LITTLE_ENDIAN);
        in.asFloatBuffer().put(x);
        try (var os = p.getOutputStream()) {
            os.write(in.array());
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(out.length).isEqualTo(4 * x.length);
        float[] y = new float[x.length];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(y);
        return y;
    }
}
