package dev.audioengine.backend.cpu.kernels.linear;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelHarness;
import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Constant quantized and half-float weights of tall products are decoded once into F32 panels shared by every
 * graph of the backend ({@link PanelCache}): right at odd sizes against float64, bit-identical to packing per run
 * (the same weight passed as a graph input), shared across graphs compiled over the same weight, and bounded. F32
 * weights of few-row products and convolution spectra share the cache and its budget.
 */
class PanelCacheTest {
    private static final KernelHarness H = new KernelHarness();
    /** As MatMulKernelTest: float32 accumulation error only, yet one wrong element in 100k fails. */
    private static final double BOUND = 1e-10;

    @AfterAll
    static void close() {
        H.close();
    }

    /** Row counts past the mat-vec paths (9 is the first blocked one), N with partial panels, K over one and two k slices. */
    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"Q8_0", "Q4_0", "F16", "BF16"})
    void tallProductsOverCachedPanelsAreRight(DType wType) {
        int[][] nk = wType.isQuantized()
                ? new int[][] {{1, 32}, {33, 288}, {65, 1056}, {1000, 96}}
                : new int[][] {{1, 7}, {33, 289}, {65, 1031}, {1000, 33}};
        for (int m : new int[] {9, 13, 97, 300})
            for (int[] s : nk) {
                if ((long) m * s[0] * s[1] > 12_000_000L) continue; // the float64 reference loop stays quick
                int n = s[0], k = s[1];
                double[] x = H.gaussian(m * k);
                try (HostTensor w = HostTensor.convert(wType, Shape.of(n, k), KernelHarness.floats(H.gaussian(n * k)));
                        HostTensor xh = HostTensor.ofFloats(Shape.of(m, k), KernelHarness.floats(x))) {
                    GraphBuilder g = new GraphBuilder();
                    Tensor y = g.matmul(g.input("x", Shape.of(m, k)), g.constant(w));
                    float[] got = H.run(g.build(y), Map.of("x", xh), BOUND);
                    H.assertClose(
                            "x[" + m + ", " + k + "] · constant " + wType + " w[" + n + ", " + k + "]ᵀ",
                            got,
                            MatMulKernelTest.reference(
                                    x, new long[] {m, k}, KernelHarness.stored(w), new long[] {n, k}, new long[] {m, n
                                    }),
                            BOUND);
                }
            }
    }

    /**
     * Two graphs of different row counts over one constant (as Moonshine's encoder is compiled per window length)
     * give exactly the bits of the same weight as a graph input, packed per run; batched products (several
     * [T, K] slices against one weight) too.
     */
    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"Q8_0", "Q4_0", "BF16"})
    void cachedPanelsGiveTheBitsOfPackingPerRun(DType wType) {
        int n = 70, k = 1088; // two k slices, a partial last panel
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(2).build();
                HostTensor w = HostTensor.convert(wType, Shape.of(n, k), KernelHarness.floats(H.gaussian(n * k)))) {
            for (long[] xDims : new long[][] {{97, k}, {300, k}, {3, 40, k}}) {
                float[] x =
                        KernelHarness.floats(H.gaussian((int) Shape.of(xDims).elements()));
                float[] cached = run(e, xDims, x, w, true), perRun = run(e, xDims, x, w, false);
                assertThat(cached)
                        .as("x%s · constant %s vs the same weight as an input", java.util.Arrays.toString(xDims), wType)
                        .isEqualTo(perRun);
            }
        }
    }

    private static float[] run(AudioEngine e, long[] xDims, float[] x, HostTensor w, boolean constant) {
        GraphBuilder g = new GraphBuilder();
        Tensor y =
                g.matmul(g.input("x", Shape.of(xDims)), constant ? g.constant(w) : g.input("w", w.dtype(), w.shape()));
        try (CompiledGraph cg = e.compile(g.build(y));
                HostTensor xh = HostTensor.ofFloats(Shape.of(xDims), x);
                CompiledGraph.Outputs out = cg.run(constant ? Map.of("x", xh) : Map.of("x", xh, "w", w))) {
            return out.get(0).toFloatArray();
        }
    }

    /** One weight is packed once whoever asks; another view of the same bytes is another entry; freeing its buffer drops it. */
    @Test
    void sharesPanelsPerWeightAndForgetsFreedBuffers() {
        PanelCache cache = new PanelCache();
        try (Arena arena = Arena.ofConfined()) {
            CpuTensor w = q8(arena, 40, 64);
            PackedPanels first = cache.panels(w, 40, 64, 64, 1);
            assertThat(cache.panels(w, 40, 64, 64, 1)).isSameAs(first);
            long oneWeight = cache.bytes();
            assertThat(oneWeight).isEqualTo(4L * 2 * Gemm.NR * 64); // 40 rows: two panels of NR columns
            assertThat(cache.panels(w, 20, 64, 64, 1)).isNotSameAs(first); // the first 20 rows: other panels
            cache.forget(w.segment());
            assertThat(cache.bytes()).isZero();
            assertThat(cache.panels(w, 40, 64, 64, 1)).isNotSameAs(first);
        }
    }

    /** Past its budget the cache declines (the product then packs per run) instead of growing. */
    @Test
    void declinesPastItsBudget() {
        try (Arena arena = Arena.ofConfined()) {
            int rows = 64, k = 96; // 24 KiB of F32 panels each
            long each = 4L * rows * k;
            PanelCache cache = new PanelCache(3 * each + each / 2);
            for (int i = 0; i < 3; i++)
                assertThat(cache.panels(q8(arena, rows, k), rows, k, k, 1))
                        .as("weight " + i)
                        .isNotNull();
            assertThat(cache.panels(q8(arena, rows, k), rows, k, k, 1)).isNull();
            assertThat(cache.bytes()).isEqualTo(3 * each);
        }
    }

    /** F32 weights of few-row products are packed once per backend too; with the cache full, the caller gets its own copy. */
    @Test
    void sharesF32PanelsAndPacksItsOwnWhenFull() {
        try (Arena arena = Arena.ofConfined()) {
            int n = 48, k = 40;
            PanelCache cache = new PanelCache(4L * 2 * Gemm.NR * k); // room for one such weight (two panels)
            CpuTensor a = f32(arena, n, k), b = f32(arena, n, k);
            PackedPanels first = cache.sharedOrOwn(a, n, k, k, 1);
            assertThat(cache.sharedOrOwn(a, n, k, k, 1)).isSameAs(first);
            PackedPanels own = cache.sharedOrOwn(b, n, k, k, 1);
            assertThat(own).isNotNull().isNotSameAs(cache.sharedOrOwn(b, n, k, k, 1)); // not kept: packed per caller
            assertThat(cache.bytes()).isEqualTo(4L * first.data.length);
        }
    }

    /** A conv weight's spectra are computed once per plan, counted against the budget, dropped with the buffer, declined past the budget. */
    @Test
    void sharesConvSpectraAndCountsThem() {
        var g = new Conv1dKernel.Geometry(1, 64, 40, 500, 11, 500, 1, 5, 1, 1);
        Conv1dSpectral.Plan plan = Conv1dSpectral.plan(g);
        assertThat(plan).isNotNull();
        long bytes = 4L * ConvSpectra.floatsFor(g, plan);
        try (Arena arena = Arena.ofConfined();
                WorkerPool pool = new WorkerPool(1)) {
            CpuTensor w = f32(arena, 40, 64, 11);
            PanelCache cache = new PanelCache(bytes + bytes / 2);
            ConvSpectra first = cache.spectra(w, g, plan, pool);
            assertThat(cache.spectra(w, g, plan, pool)).isSameAs(first);
            assertThat(cache.bytes()).isEqualTo(bytes).isEqualTo(4L * first.floats());
            assertThat(cache.spectra(f32(arena, 40, 64, 11), g, plan, pool)).isNull(); // a second would pass the budget
            cache.forget(w.segment());
            assertThat(cache.bytes()).isZero();
        }
    }

    /** A zero-filled F32 tensor of the given shape in its own segment, as a kernel sees a constant. */
    private static CpuTensor f32(Arena arena, long... dims) {
        Tensor t = new GraphBuilder().input("w", DType.F32, Shape.of(dims));
        return CpuTensor.of(t, arena.allocate(4L * Shape.of(dims).elements(), 64), 0);
    }

    /** A zero-filled Q8_0 weight of {@code n x k} in its own segment, as a kernel sees a constant. */
    private static CpuTensor q8(Arena arena, int n, int k) {
        Tensor t = new GraphBuilder().input("w", DType.Q8_0, Shape.of(n, k));
        MemorySegment seg = arena.allocate(DType.Q8_0.bytesFor((long) n * k), 64);
        return CpuTensor.of(t, seg, 0);
    }
}
