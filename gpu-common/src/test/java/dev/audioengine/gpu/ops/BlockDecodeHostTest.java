package dev.audioengine.gpu.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HalfFloats;
import dev.audioengine.gpu.compile.KernelSources;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA/HIP kernels' block arithmetic, run on the host against engine-api's BlockQuantization (no GPU needed):
 * kernels_on_host.cpp builds the real layout.cu and linear.cu (with gpu_compat.h and ae_tensor.h) as host code with
 * g++ and runs their kernels, one host thread per GPU thread. For every block type {@link BlockTypes#decoded} claims:
 * ae_cast_to_f32 (the decode get_rows, the tiled matmul's loader and the decoded weight copies share) equals the Java
 * decode bit for bit on blocks of random bytes; ae_quantize gives BlockQuantization's bytes exactly; ae_matvec_<type> (32-
 * and 64-lane warps) and ae_matmul agree with a float64 product of the Java-decoded weights. Skipped, with a message,
 * where g++ is absent. The seed is fresh each run and printed on failure; -Dblocks.seed repeats one.
 */
class BlockDecodeHostTest {
    private static final long SEED = Long.getLong("blocks.seed", System.nanoTime());

    @TempDir
    static Path dir;

    private static Path harness32, harness64;

    /** g++ on PATH, null when there is none. */
    static Path gpp() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(d, "g++");
            if (!d.isEmpty() && Files.isExecutable(p)) return p;
        }
        return null;
    }

    @BeforeAll
    static void build() throws Exception {
        Path gpp = gpp();
        Assumptions.assumeTrue(gpp != null, "g++ not found on PATH: the kernels' block arithmetic not run on the host");
        for (String h : KernelSources.HEADERS) Files.writeString(dir.resolve(h), KernelSources.text(h));
        for (String s : List.of("layout", "linear"))
            Files.writeString(dir.resolve(s + ".cu"), KernelSources.text(s + ".cu"));
        for (String f : List.of("gpu_on_host.h", "kernels_on_host.cpp")) {
            try (InputStream in = BlockDecodeHostTest.class.getResourceAsStream("/dev/audioengine/gpu/host/" + f)) {
                Files.write(dir.resolve(f), in.readAllBytes());
            }
        }
        harness32 = compile(gpp, dir, "kernels_on_host.cpp", "koh32");
        harness64 = compile(
                gpp,
                dir,
                "kernels_on_host.cpp",
                "koh64",
                "-DHOST_WARP=64",
                "-D__HIP__",
                "-D__AMDGCN_WAVEFRONT_SIZE=64");
    }

    /** Builds {@code source} in {@code dir} (with the kernel sources and headers written there) into {@code name}. */
    static Path compile(Path gpp, Path dir, String source, String name, String... defines) throws Exception {
        List<String> cmd = new ArrayList<>(
                List.of(gpp.toString(), "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-Wno-unknown-pragmas"));
        cmd.addAll(Arrays.asList(defines));
        cmd.addAll(List.of(
                "-I",
                dir.toString(),
                "-o",
                dir.resolve(name).toString(),
                dir.resolve(source).toString()));
        run(cmd);
        return dir.resolve(name);
    }

    /** The harness's {@code mode} ("matvec" or "matmul") product of the weights at {@code wp} and x at {@code xp}. */
    private static float[] product(Path harness, String mode, DType t, int m, int n, int k, Path wp, Path xp)
            throws Exception {
        Path out = dir.resolve("y");
        run(List.of(
                harness.toString(),
                mode,
                "" + t.ordinal(),
                "" + m,
                "" + n,
                "" + k,
                wp.toString(),
                xp.toString(),
                out.toString()));
        return readFloats(out);
    }

    private static void run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("finished: " + cmd).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + log).isZero();
    }

    private static List<DType> decodedBlockTypes() {
        return Arrays.stream(DType.values())
                .filter(t -> t.isQuantized() && BlockTypes.decoded(t))
                .toList();
    }

    /** Random bytes for {@code blocks} blocks, with every f16 field (scales, minimums) a finite value of either sign. */
    private static byte[] randomBlocks(DType t, int blocks, SplittableRandom rnd) {
        byte[] b = new byte[blocks * t.blockBytes()];
        for (int i = 0; i < b.length; i++) b[i] = (byte) rnd.nextInt(256);
        int[] halves = switch (t) {
            case Q8_0, Q4_0, Q5_0 -> new int[] {0};
            case Q5_1, Q4_1, Q4_K, Q5_K -> new int[] {0, 2};
            case Q6_K -> new int[] {208};
            case Q3_K -> new int[] {108};
            case Q2_K -> new int[] {80, 82};
            default -> throw new IllegalArgumentException(t.toString());
        };
        for (int k = 0; k < blocks; k++) {
            for (int at : halves) {
                // magnitudes from f16 subnormals to large, so products of scales and codes round where they may
                float v = (float) (rnd.nextGaussian() * Math.pow(2, rnd.nextInt(-26, 8)));
                short h = HalfFloats.floatToF16(v);
                int off = k * t.blockBytes() + at;
                b[off] = (byte) h;
                b[off + 1] = (byte) (h >> 8);
            }
        }
        return b;
    }

    private static float[] javaDecode(DType t, byte[] blocks, int values) {
        float[] y = new float[values];
        BlockQuantization.dequantize(t, MemorySegment.ofArray(blocks), 0, y, 0, values);
        return y;
    }

    /** Little-endian floats, the host harnesses' file format (AttentionHostTest too). */
    static byte[] floatBytes(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) b.putFloat(f);
        return b.array();
    }

    static float[] readFloats(Path p) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
        float[] v = new float[b.remaining() / 4];
        for (int i = 0; i < v.length; i++) v[i] = b.getFloat();
        return v;
    }

    private static Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    @Test
    void castToF32DecodesEveryValueAsTheJavaDecodeBitForBit() throws Exception {
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (DType t : decodedBlockTypes()) {
            int blocks = t.blockSize() == 32 ? 4000 : 500, n = blocks * t.blockSize();
            byte[] w = randomBlocks(t, blocks, rnd);
            Path out = dir.resolve("decoded");
            run(List.of(
                    harness32.toString(),
                    "decode",
                    "" + t.ordinal(),
                    "" + n,
                    write("w", w).toString(),
                    out.toString()));
            float[] want = javaDecode(t, w, n), got = readFloats(out);
            assertThat(got).hasSize(n);
            for (int i = 0; i < n; i++) {
                if (Float.floatToRawIntBits(got[i]) != Float.floatToRawIntBits(want[i]))
                    throw new AssertionError(t + " value " + i + " (block " + i / t.blockSize() + "): kernel " + got[i]
                            + ", BlockQuantization " + want[i] + " (seed " + SEED + ")");
            }
        }
    }

    /** Values of a block's typical spreads, and blocks that are constant, zero, one-signed or one large outlier. */
    private static float[] values(int n, SplittableRandom rnd) {
        float[] v = new float[n];
        for (int b = 0; b < n / 32; b++) {
            int kind = rnd.nextInt(8);
            double scale = Math.pow(2, rnd.nextInt(-12, 6)), shift = kind == 5 ? 3 * scale : kind == 6 ? -3 * scale : 0;
            for (int i = 0; i < 32; i++) {
                double x = switch (kind) {
                    case 0 -> 0;
                    case 1 -> scale;
                    case 2 -> (i == 7 ? 40 : 1) * rnd.nextGaussian() * scale;
                    default -> rnd.nextGaussian() * scale + shift;
                };
                v[32 * b + i] = (float) x;
            }
        }
        return v;
    }

    @Test
    void quantizeWritesBlockQuantizationsBytes() throws Exception {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0x5EED);
        for (DType t : decodedBlockTypes()) {
            int n = t.blockSize() * (t.blockSize() == 32 ? 4000 : 500);
            float[] x = values(n, rnd);
            byte[] want = new byte[(int) t.bytesFor(n)];
            BlockQuantization.quantize(t, x, 0, n, MemorySegment.ofArray(want), 0);
            Path out = dir.resolve("quantized");
            run(List.of(
                    harness32.toString(),
                    "quantize",
                    "" + t.ordinal(),
                    "" + n,
                    write("x", floatBytes(x)).toString(),
                    out.toString()));
            byte[] got = Files.readAllBytes(out);
            assertThat(got).hasSize(want.length);
            for (int i = 0; i < want.length; i++) {
                if (got[i] != want[i]) {
                    int block = i / t.blockBytes();
                    throw new AssertionError(t + " block " + block + " byte " + i % t.blockBytes() + ": kernel "
                            + (got[i] & 0xff) + ", BlockQuantization " + (want[i] & 0xff) + "; values "
                            + Arrays.toString(Arrays.copyOfRange(x, block * t.blockSize(), (block + 1) * t.blockSize()))
                            + " (seed " + SEED + ")");
                }
            }
        }
    }

    @Test
    void matvecAndTiledMatmulMatchAFloat64ProductOfTheJavaDecode() throws Exception {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0xA11);
        for (DType t : decodedBlockTypes()) {
            // N = 19: a block of 8 outputs left part-full, and a 16-wide tile; K of several blocks (and, for the
            // 32-value types, more blocks than a warp takes at once)
            int n = 19, k = t.blockSize() == 32 ? 32 * 11 : 256 * 3;
            byte[] w = randomBlocks(t, n * k / t.blockSize(), rnd);
            float[] wf = javaDecode(t, w, n * k);
            for (int m : new int[] {1, 3, 17}) {
                float[] x = new float[m * k];
                for (int i = 0; i < x.length; i++) x[i] = (float) rnd.nextGaussian();
                Path wp = write("w", w), xp = write("x", floatBytes(x));
                List<String[]> runs = new ArrayList<>();
                runs.add(new String[] {harness32.toString(), "matvec"});
                runs.add(new String[] {harness64.toString(), "matvec"});
                runs.add(new String[] {harness32.toString(), "matmul"});
                for (String[] r : runs)
                    assertFloat64Product(
                            t + " " + r[1] + (r[0].endsWith("64") ? " (wave64)" : ""),
                            product(Path.of(r[0]), r[1], t, m, n, k, wp, xp),
                            wf,
                            x,
                            m,
                            n,
                            k);
            }
        }
    }

    /**
     * ae_matvec_f16 and ae_matvec_bf16 (32- and 64-lane warps): half-float weights widened exactly, F32 activations
     * as they are, against a float64 product; K odd (a lane's second value past the end), shorter than a warp's two
     * values a lane, and several reads long; N not a multiple of the 8 outputs a block takes; 1, 3 and 17 rows. The
     * bound is F32 accumulation's alone: a kernel that rounded the activations to half (as the library's one-GEMM
     * path does) fails it.
     */
    @Test
    void halfMatvecMatchesAFloat64ProductOfTheWidenedWeights() throws Exception {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0xF16);
        for (DType t : List.of(DType.F16, DType.BF16)) {
            for (int k : new int[] {37, 389, 1024}) {
                int n = 19;
                float[] wf = new float[n * k];
                ByteBuffer wb = ByteBuffer.allocate(2 * n * k).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < wf.length; i++) {
                    float v = (float) rnd.nextGaussian();
                    short h = t == DType.F16 ? HalfFloats.floatToF16(v) : HalfFloats.floatToBf16(v);
                    wb.putShort(h);
                    wf[i] = t == DType.F16 ? HalfFloats.f16ToFloat(h) : HalfFloats.bf16ToFloat(h);
                }
                for (int m : new int[] {1, 3, 17}) {
                    float[] x = new float[m * k];
                    for (int i = 0; i < x.length; i++) x[i] = (float) rnd.nextGaussian() * (1 + 1e-3f * i);
                    Path wp = write("w", wb.array()), xp = write("x", floatBytes(x));
                    for (Path harness : List.of(harness32, harness64))
                        assertFloat64Product(
                                t + " matvec" + (harness == harness64 ? " (wave64)" : ""),
                                product(harness, "matvec", t, m, n, k, wp, xp),
                                wf,
                                x,
                                m,
                                n,
                                k);
                }
            }
        }
    }

    /**
     * y [m, n] is x [m, k] times w [n, k] transposed within F32 accumulation's bound: a few units of 2^-24 times the
     * sum of the products' magnitudes.
     */
    private static void assertFloat64Product(String what, float[] y, float[] w, float[] x, int m, int n, int k) {
        assertThat(y).hasSize(m * n);
        for (int row = 0; row < m; row++) {
            for (int col = 0; col < n; col++) {
                double sum = 0, mag = 0;
                for (int i = 0; i < k; i++) {
                    double p = (double) w[col * k + i] * x[row * k + i];
                    sum += p;
                    mag += Math.abs(p);
                }
                double tol = 8 * k * 0x1p-24 * mag + 1e-30;
                double got = y[row * n + col];
                if (!(Math.abs(got - sum) <= tol))
                    throw new AssertionError(what + " x[" + m + "," + k + "] y[" + row + "," + col + "]: kernel " + got
                            + ", float64 " + sum + " (tolerance " + tol + ", seed " + SEED + ")");
            }
        }
    }

    @Test
    void theTypesUnderTestAreTheOnesTheOpsClaim() {
        assertThat(decodedBlockTypes()).contains(DType.Q8_0, DType.Q4_0, DType.Q5_0, DType.Q5_1, DType.Q4_1);
    }
}
