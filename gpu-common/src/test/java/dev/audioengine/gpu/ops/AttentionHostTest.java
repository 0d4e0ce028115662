package dev.audioengine.gpu.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HalfFloats;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.gpu.compile.KernelSources;
import java.io.InputStream;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sequence.cu's attention kernels run on the host against a float64 softmax(q k^T scale + mask [+ causal]) v (no GPU
 * needed): attention_on_host.cpp builds the real sequence.cu (with gpu_compat.h and ae_tensor.h, through
 * gpu_on_host.h) with g++, 32- and 64-lane warps, and launches ae_attention, or ae_attention_split then
 * ae_attention_merge, as SequenceOps binds them (256 threads a block, its grids, its dynamic shared bytes, TensorDesc's
 * descriptors of graph tensors). Cases: sizes off every tile (Tq off 16, Tk off 64 and 32, odd D), grouped heads,
 * causal with Tq < Tk, a [Tq, Tk] additive mask with -inf and a hidden row, a [B, 1, Tq, Tk] key-prefix mask hiding
 * a whole batch element, all but the first key of a tile and a whole 64-key tile, F16 and BF16 caches, and a NaN score whose row alone turns NaN.
 * Built with AddressSanitizer, so a read or write past any buffer (shared memory included) fails too. Skipped, with a
 * message, where g++ or its AddressSanitizer is absent. The seed is fresh each run and printed on failure; -Dattention.seed
 * repeats one.
 */
class AttentionHostTest {
    private static final long SEED = Long.getLong("attention.seed", System.nanoTime());

    @TempDir
    static Path dir;

    private static Path harness32, harness64;

    /**
     * AddressSanitizer: a kernel's read or write past q, k, v, the mask, y, the split parts or the launch's dynamic
     * shared memory (each an exact-size host buffer) fails the run instead of reading a neighbour's values.
     */
    private static final String SANITIZE = "-fsanitize=address";

    /** How the case masks: none, one [Tq, Tk] additive mask for the batch, or [B, 1, Tq, Tk] key prefixes. */
    enum MaskKind {
        NONE,
        SHARED,
        PREFIX
    }

    /** One attention; nan puts a NaN in one visible score (through the shared mask). */
    record Case(int b, int h, int hkv, int tq, int tk, int d, DType kvt, MaskKind mask, boolean causal, boolean nan) {
        @Override
        public String toString() {
            return "B=" + b + " H=" + h + " Hkv=" + hkv + " Tq=" + tq + " Tk=" + tk + " D=" + d + " " + kvt + " mask="
                    + mask + (causal ? " causal" : "") + (nan ? " NaN" : "");
        }
    }

    @BeforeAll
    static void build() throws Exception {
        Path gpp = BlockDecodeHostTest.gpp();
        Assumptions.assumeTrue(gpp != null, "g++ not found on PATH: the attention kernels not run on the host");
        Files.writeString(dir.resolve("probe.cpp"), "int main() { return 0; }\n");
        Process probe = new ProcessBuilder(
                        gpp.toString(),
                        SANITIZE,
                        "-o",
                        dir.resolve("probe").toString(),
                        dir.resolve("probe.cpp").toString())
                .redirectErrorStream(true)
                .start();
        String probeLog = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Assumptions.assumeTrue(
                probe.waitFor() == 0,
                "g++ cannot link AddressSanitizer (install libasan): the attention kernels not run on the host\n"
                        + probeLog);
        for (String h : KernelSources.HEADERS) Files.writeString(dir.resolve(h), KernelSources.text(h));
        Files.writeString(dir.resolve("sequence.cu"), hostText(KernelSources.text("sequence.cu")));
        for (String f : List.of("gpu_on_host.h", "attention_on_host.cpp")) {
            try (InputStream in = AttentionHostTest.class.getResourceAsStream("/dev/audioengine/gpu/host/" + f)) {
                Files.write(dir.resolve(f), in.readAllBytes());
            }
        }
        harness32 = BlockDecodeHostTest.compile(gpp, dir, "attention_on_host.cpp", "att32", SANITIZE);
        harness64 = BlockDecodeHostTest.compile(
                gpp,
                dir,
                "attention_on_host.cpp",
                "att64",
                "-DHOST_WARP=64",
                "-D__HIP__",
                "-D__AMDGCN_WAVEFRONT_SIZE=64");
    }

    private static final Pattern DYNAMIC_SHARED = Pattern.compile("extern GC_SHARED float (\\w+)\\[\\];");

    /**
     * sequence.cu as host code: each dynamic shared array declaration becomes a pointer into the launch's host buffer
     * (the only change; the kernels' text is the real one).
     */
    static String hostText(String source) {
        Matcher m = DYNAMIC_SHARED.matcher(source);
        String text = m.replaceAll("float* $1 = gc_host_shared;");
        // ae_attention, ae_attention_split, ae_attention_merge and the two LSTM kernels
        assertThat(DYNAMIC_SHARED.matcher(source).results().count())
                .as("dynamic shared declarations rewritten in sequence.cu")
                .isGreaterThanOrEqualTo(5);
        assertThat(text).doesNotContain("extern GC_SHARED");
        return text;
    }

    private static List<Case> cases() {
        return List.of(
                // the tiled kernel: Tq off 16, Tk off 64, odd D
                new Case(1, 2, 2, 19, 100, 37, DType.F32, MaskKind.NONE, false, false),
                // grouped heads, causal with Tq < Tk (the last tile partly visible)
                new Case(2, 4, 2, 21, 130, 52, DType.F32, MaskKind.NONE, true, false),
                // an additive mask with -inf and a hidden row, F16 cache, two query tiles
                new Case(1, 2, 1, 33, 70, 64, DType.F16, MaskKind.SHARED, false, false),
                // key prefixes 200, 0 (every row zeros) and 65 (key 64 alone seen in its tile, keys 128-191 a whole
                // tile hidden), BF16 cache
                new Case(3, 2, 2, 17, 200, 37, DType.BF16, MaskKind.PREFIX, false, false),
                new Case(2, 2, 1, 18, 150, 64, DType.F32, MaskKind.PREFIX, true, false),
                // one NaN score: its row NaN, every other row finite
                new Case(1, 2, 2, 18, 90, 52, DType.F32, MaskKind.SHARED, true, true),
                // decoder steps (Tq <= 4): the split kernels
                new Case(2, 4, 2, 1, 100, 37, DType.F16, MaskKind.NONE, false, false),
                new Case(3, 2, 1, 3, 150, 64, DType.F32, MaskKind.PREFIX, true, false),
                new Case(1, 2, 2, 4, 70, 52, DType.BF16, MaskKind.SHARED, true, true),
                new Case(1, 3, 3, 2, 31, 37, DType.F32, MaskKind.SHARED, false, false));
    }

    @Test
    void attentionMatchesAFloat64Softmax() throws Exception {
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (Case c : cases()) check(c, rnd);
    }

    private static void check(Case c, SplittableRandom rnd) throws Exception {
        GraphBuilder g = new GraphBuilder();
        Tensor q = g.input("q", DType.F32, Shape.of(c.b, c.h, c.tq, c.d));
        Tensor k = g.input("k", c.kvt, Shape.of(c.b, c.hkv, c.tk, c.d));
        Tensor v = g.input("v", c.kvt, Shape.of(c.b, c.hkv, c.tk, c.d));
        Tensor mask = switch (c.mask) {
            case NONE -> null;
            case SHARED -> g.input("mask", DType.F32, Shape.of(c.tq, c.tk));
            case PREFIX -> g.input("mask", DType.F32, Shape.of(c.b, 1, c.tq, c.tk));
        };
        float scale = (float) (1 / Math.sqrt(c.d));
        Tensor node = g.attention(q, k, v, mask, scale, c.causal);

        // logits of a few units, so weights differ by orders and the running max moves between tiles
        float[] qf = gaussian(rnd, c.b * c.h * c.tq * c.d, 2.5);
        float[] kf = stored(c.kvt, gaussian(rnd, c.b * c.hkv * c.tk * c.d, 1));
        float[] vf = stored(c.kvt, gaussian(rnd, c.b * c.hkv * c.tk * c.d, 1));
        float[] mf = maskValues(c, rnd);

        // the launch as SequenceOps.bind makes it: y first for ae_attention only, a null mask with q's descriptor
        List<Long> args = new ArrayList<>();
        boolean split = SequenceOps.decodeKernels(node);
        long blocks = (long) c.b * c.h * ((c.tq + SequenceOps.ATT_QT - 1) / SequenceOps.ATT_QT);
        long rows = (long) c.b * c.h * c.tq, splits = SequenceOps.attentionSplits(node);
        // a decoder step takes the split kernels; ae_attention runs it too (as a step with a head wider than a block
        // would), with its tiles of 16 queries mostly empty
        List<String> modes = new ArrayList<>();
        modes.add("attention");
        if (split) modes.add("split");
        for (String mode : modes) {
            args.clear();
            if (mode.equals("split")) {
                args.add(rows * splits);
                args.add(4L * (c.d + SequenceOps.ATT_SPLIT_KEYS + Binding.THREADS));
            } else {
                args.add(blocks);
                args.add(SequenceOps.attentionShared(node));
            }
            addDesc(args, TensorDesc.of(q));
            addDesc(args, TensorDesc.of(k));
            addDesc(args, TensorDesc.of(v));
            args.add((long) k.dtype().ordinal());
            args.add(mask != null ? 1L : 0L);
            addDesc(args, mask != null ? TensorDesc.of(mask) : TensorDesc.of(q));
            args.add((long) Float.floatToRawIntBits(scale) & 0xffffffffL);
            args.add(c.causal ? 1L : 0L);
            args.add((long) c.b * c.h * c.tq * c.d);
            if (mode.equals("split")) {
                args.add(splits);
                args.add(rows);
                args.add(4L * Binding.THREADS);
            }
            Path argFile = Files.writeString(
                    dir.resolve("args"), args.stream().map(String::valueOf).collect(Collectors.joining(" ")));
            Path qp = Files.write(dir.resolve("q"), BlockDecodeHostTest.floatBytes(qf));
            Path kp = Files.write(dir.resolve("k"), elementBytes(c.kvt, kf));
            Path vp = Files.write(dir.resolve("v"), elementBytes(c.kvt, vf));
            Path mp = Files.write(dir.resolve("mask"), mf == null ? new byte[0] : BlockDecodeHostTest.floatBytes(mf));
            double[] want = reference(c, qf, kf, vf, mf, scale);
            for (Path harness : List.of(harness32, harness64)) {
                Path out = dir.resolve("y");
                run(List.of(
                        harness.toString(),
                        mode,
                        argFile.toString(),
                        qp.toString(),
                        kp.toString(),
                        vp.toString(),
                        mp.toString(),
                        out.toString()));
                float[] got = BlockDecodeHostTest.readFloats(out);
                assertThat(got).hasSize(want.length);
                compare(c, mode + (harness == harness64 ? " (wave64)" : ""), got, want, vf);
            }
        }
    }

    private static void compare(Case c, String what, float[] got, double[] want, float[] vf) {
        int hPerKv = c.h / c.hkv;
        for (int bi = 0; bi < c.b; bi++) {
            for (int hi = 0; hi < c.h; hi++) {
                // the output is a convex combination of the head's value rows: float32 error scales with their size
                int hk = hi / hPerKv;
                double vMax = 0;
                for (int e = 0; e < c.tk * c.d; e++)
                    vMax = Math.max(vMax, Math.abs(vf[((bi * c.hkv + hk) * c.tk) * c.d + e]));
                double tol = 1e-5 * vMax;
                for (int i = 0; i < c.tq; i++) {
                    for (int di = 0; di < c.d; di++) {
                        int o = ((bi * c.h + hi) * c.tq + i) * c.d + di;
                        double w = want[o], y = got[o];
                        boolean ok = Double.isNaN(w) ? Double.isNaN(y) : Math.abs(y - w) <= tol;
                        if (!ok)
                            throw new AssertionError(what + " " + c + ": y[" + bi + "," + hi + "," + i + "," + di
                                    + "] = " + y + ", float64 " + w + " (tolerance " + tol + ", seed " + SEED + ")");
                    }
                }
            }
        }
    }

    /** softmax(q k^T scale + mask [+ causal]) v in float64; a query that sees no key gets zeros, a NaN score NaNs. */
    private static double[] reference(Case c, float[] q, float[] k, float[] v, float[] mask, float scale) {
        double[] y = new double[c.b * c.h * c.tq * c.d];
        double[] s = new double[c.tk];
        int hPerKv = c.h / c.hkv;
        for (int bi = 0; bi < c.b; bi++) {
            for (int hi = 0; hi < c.h; hi++) {
                int kvBase = (bi * c.hkv + hi / hPerKv) * c.tk * c.d;
                for (int i = 0; i < c.tq; i++) {
                    int qBase = ((bi * c.h + hi) * c.tq + i) * c.d;
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < c.tk; j++) {
                        if (c.causal && j > i + (c.tk - c.tq)) {
                            s[j] = Double.NEGATIVE_INFINITY;
                            continue;
                        }
                        double dot = 0;
                        for (int di = 0; di < c.d; di++) dot += (double) q[qBase + di] * k[kvBase + j * c.d + di];
                        double m = switch (c.mask) {
                            case NONE -> 0;
                            case SHARED -> mask[i * c.tk + j];
                            case PREFIX -> mask[(bi * c.tq + i) * c.tk + j];
                        };
                        s[j] = dot * scale + m;
                        max = Double.isNaN(s[j]) || Double.isNaN(max) ? Double.NaN : Math.max(max, s[j]);
                    }
                    if (max == Double.NEGATIVE_INFINITY) continue; // zeros
                    double l = 0;
                    double[] o = new double[c.d];
                    for (int j = 0; j < c.tk; j++) {
                        double p = s[j] == Double.NEGATIVE_INFINITY ? 0 : Math.exp(s[j] - max);
                        l += p;
                        if (p != 0 || Double.isNaN(p))
                            for (int di = 0; di < c.d; di++) o[di] += p * v[kvBase + j * c.d + di];
                    }
                    for (int di = 0; di < c.d; di++) y[qBase + di] = o[di] / l;
                }
            }
        }
        return y;
    }

    /** The mask's values, null for none. SHARED: additive noise, some -inf, row 1 hidden; PREFIX: lengths per b. */
    private static float[] maskValues(Case c, SplittableRandom rnd) {
        return switch (c.mask) {
            case NONE -> null;
            case SHARED -> {
                float[] m = new float[c.tq * c.tk];
                for (int i = 0; i < m.length; i++)
                    m[i] = rnd.nextInt(10) == 0 ? Float.NEGATIVE_INFINITY : (float) rnd.nextDouble(-2, 2);
                if (c.tq > 2) Arrays.fill(m, c.tk, 2 * c.tk, Float.NEGATIVE_INFINITY); // query 1 sees nothing
                if (c.nan) m[(c.tq - 1) * c.tk] = Float.NaN; // key 0: visible to the last query under causal too
                yield m;
            }
            case PREFIX -> {
                // lengths Tk, 0, 65, ...: a batch element with no key, a tile (and a split) whose first key alone is
                // seen, and (Tk >= 192) keys 128-191 a hidden tile
                float[] m = new float[c.b * c.tq * c.tk];
                for (int bi = 0; bi < c.b; bi++) {
                    int length = bi == 0 ? c.tk : bi == 1 ? 0 : Math.min(65, c.tk);
                    for (int i = 0; i < c.tq; i++)
                        for (int j = 0; j < c.tk; j++)
                            m[(bi * c.tq + i) * c.tk + j] = j < length ? 0 : Float.NEGATIVE_INFINITY;
                }
                yield m;
            }
        };
    }

    private static float[] gaussian(SplittableRandom rnd, int n, double sigma) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = (float) (rnd.nextGaussian() * sigma);
        return x;
    }

    /** The values a cache of dtype t holds (rounded to F16 or BF16). */
    private static float[] stored(DType t, float[] x) {
        float[] y = x.clone();
        for (int i = 0; i < y.length; i++) {
            if (t == DType.F16) y[i] = HalfFloats.f16ToFloat(HalfFloats.floatToF16(x[i]));
            else if (t == DType.BF16) y[i] = HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(x[i]));
        }
        return y;
    }

    private static byte[] elementBytes(DType t, float[] x) {
        if (t == DType.F32) return BlockDecodeHostTest.floatBytes(x);
        ByteBuffer b = ByteBuffer.allocate(2 * x.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : x) b.putShort(t == DType.F16 ? HalfFloats.floatToF16(f) : HalfFloats.floatToBf16(f));
        return b.array();
    }

    private static void addDesc(List<Long> args, TensorDesc d) {
        for (long n : d.n()) args.add(n);
        for (long s : d.s()) args.add(s);
    }

    private static void run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("finished: " + cmd).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + log).isZero();
    }
}
