package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.PersistentTensor;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.CaseResult;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.conformance.Float64Reference;
import dev.audioengine.conformance.ReportFormat;
import dev.audioengine.reference.ReferenceEvaluator;
import dev.audioengine.reference.ReferenceState;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Persistent tensors through the engine on the CPU: state carried across runs and shared by
 * graphs of different shapes, against the float64 reference; capacity errors; ownership.
 */
class PersistentStateTest {
    private static final Shape CACHE = Shape.of(1, 2, 13, 8);

    /** The state conformance cases (multi-run) on the CPU against float64: what CI runs in check --backend cpu. */
    @Test
    void stateCasesPassOnTheCpu() {
        long seed = Seeds.fresh();
        List<ConformanceCase> cases = Stream.concat(
                        CaseCatalogue.select("write_slice", null).stream(),
                        CaseCatalogue.select("key_mask", null).stream())
                .toList();
        assertThat(cases).hasSizeGreaterThanOrEqualTo(20);
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(2).build()) {
            ConformanceReport report =
                    new ConformanceHarness(engine.backend(), new Float64Reference()).run(cases, seed, r -> {});
            String bad = report.results().stream()
                    .filter(r -> r.status() != CaseResult.Status.PASS)
                    .map(ReportFormat::line)
                    .collect(Collectors.joining("\n"));
            assertThat(report.passed()).as(Seeds.describe(seed) + ":\n" + bad).isEqualTo(cases.size());
        }
    }

    /** k = writeSlice(cache, src, axis 2, start); out = q · kᵀ over the whole cache. */
    private static Graph appendAndScore(long len) {
        GraphBuilder g = new GraphBuilder();
        Tensor cache = g.state("k", CACHE);
        Tensor k = g.writeSlice(
                cache, g.input("k_new", Shape.of(1, 2, len, 8)), 2, g.input("start", DType.I32, Shape.of(1)));
        return g.build(g.matmul(g.input("q", Shape.of(1, 2, 1, 8)), k).named("scores"));
    }

    /** A prefill graph (3 tokens) and a step graph (1 token) share one cache, as a decoder's do. */
    @Test
    void twoGraphsShareOneCacheAcrossRuns() {
        long seed = Seeds.fresh();
        SplittableRandom rnd = new SplittableRandom(seed);
        Graph prefill = appendAndScore(3), step = appendAndScore(1);
        ReferenceState ref = new ReferenceState().zeros("k", DType.F32, CACHE);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                PersistentTensor cache = engine.state("k", DType.F32, CACHE);
                CompiledGraph p = engine.compile(prefill, cache);
                CompiledGraph s = engine.compile(step, cache)) {
            int pos = 0;
            for (int run = 0; run < 6; run++) {
                CompiledGraph cg = run == 0 ? p : s;
                Graph graph = run == 0 ? prefill : step;
                long len = run == 0 ? 3 : 1;
                try (HostTensor kNew = random(rnd, Shape.of(1, 2, len, 8));
                        HostTensor q = random(rnd, Shape.of(1, 2, 1, 8));
                        HostTensor start = HostTensor.ofInts(Shape.of(1), pos)) {
                    Map<String, HostTensor> in = Map.of("k_new", kNew, "q", q, "start", start);
                    double[] expected = ReferenceEvaluator.evaluate(graph, in, ref)
                            .get(graph.outputs().getFirst());
                    try (CompiledGraph.Outputs out = cg.run(in)) {
                        assertThat(out.get("scores").toFloatArray())
                                .as(Seeds.describe(seed) + " run " + run)
                                .containsExactly(floats(expected), org.assertj.core.data.Offset.offset(1e-4f));
                    }
                }
                pos += (int) len;
            }
            try (HostTensor now = cache.download()) {
                assertThat(now.toFloatArray()).containsExactly(floats(ref.values("k")));
                float[] v = now.toFloatArray();
                assertThat(v[8 * 8])
                        .as("position 8 of head 0 was never written: still zero")
                        .isZero();
            }
            cache.zero();
            try (HostTensor now = cache.download()) {
                assertThat(now.toFloatArray()).containsOnly(0f);
            }
        }
    }

    /** zero() over a state larger than the chunk of zeros it uploads at a time (odd size: a short last chunk). */
    @Test
    void zeroClearsAStateLargerThanOneChunkOfZeros() {
        long seed = Seeds.fresh();
        SplittableRandom rnd = new SplittableRandom(seed);
        Shape shape = Shape.of(3, 101_117); // 1.2 MB of F32
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                PersistentTensor state = engine.state("s", DType.F32, shape);
                HostTensor noise = random(rnd, shape)) {
            assertThat(state.byteSize()).isGreaterThan(1 << 20);
            state.upload(noise);
            try (HostTensor now = state.download()) {
                assertThat(now.toFloatArray()).as(Seeds.describe(seed)).doesNotContain(0f);
            }
            state.zero();
            try (HostTensor now = state.download()) {
                assertThat(now.toFloatArray()).containsOnly(0f);
            }
        }
    }

    @Test
    void aWritePastTheCapacityFailsTheRunWithTheNumbers() {
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                PersistentTensor cache = engine.state("k", DType.F32, CACHE);
                CompiledGraph cg = engine.compile(appendAndScore(3), cache);
                HostTensor kNew = HostTensor.allocate(DType.F32, Shape.of(1, 2, 3, 8));
                HostTensor q = HostTensor.allocate(DType.F32, Shape.of(1, 2, 1, 8))) {
            for (int start : new int[] {11, -1}) {
                try (HostTensor at = HostTensor.ofInts(Shape.of(1), start)) {
                    assertThatThrownBy(() -> cg.run(Map.of("k_new", kNew, "q", q, "start", at)))
                            .isInstanceOf(IndexOutOfBoundsException.class)
                            .hasMessageContaining("write_slice of 3 at position " + start)
                            .hasMessageContaining("0..10");
                }
            }
            try (HostTensor at = HostTensor.ofInts(Shape.of(1), 10);
                    CompiledGraph.Outputs ok = cg.run(Map.of("k_new", kNew, "q", q, "start", at))) {
                assertThat(ok.size()).as("the last three positions fit exactly").isEqualTo(1);
            }
        }
    }

    /** A cache of 3 batch elements, 2 heads, 4 positions of 2 values, written along positions with a start each. */
    private static final Shape SLOTS = Shape.of(3, 2, 4, 2);

    private static Graph appendPerBatch(long len) {
        GraphBuilder g = new GraphBuilder();
        Tensor cache = g.state("k", SLOTS);
        return g.build(g.writeSlice(
                        cache, g.input("k_new", Shape.of(3, 2, len, 2)), 2, g.input("start", DType.I32, Shape.of(3)))
                .named("written"));
    }

    /**
     * One start per batch element (a batched decoder step): element 0 writes at 2, element 1 (start -1) is skipped
     * and keeps its values, element 2 writes at 0; a second run writes element 1 at 3 and skips the others. The
     * expected cache is worked out here by index, not by the reference.
     */
    @Test
    void aStartPerBatchElementWritesEachAtItsOwnAndSkipsNegativeStarts() {
        float[] init = new float[(int) SLOTS.elements()];
        for (int i = 0; i < init.length; i++) init[i] = 100 + i;
        float[] src = new float[3 * 2 * 2];
        for (int i = 0; i < src.length; i++) src[i] = -1 - i; // element e, head h, value x: -1 - (4e + 2h + x)
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                PersistentTensor cache = engine.state("k", DType.F32, SLOTS);
                CompiledGraph cg = engine.compile(appendPerBatch(1), cache);
                HostTensor initial = HostTensor.ofFloats(SLOTS, init);
                HostTensor kNew = HostTensor.ofFloats(Shape.of(3, 2, 1, 2), src);
                HostTensor first = HostTensor.ofInts(Shape.of(3), 2, -1, 0);
                HostTensor second = HostTensor.ofInts(Shape.of(3), -1, 3, -7)) {
            cache.upload(initial);
            float[] want = init.clone();
            for (int h = 0; h < 2; h++)
                for (int x = 0; x < 2; x++) {
                    want[((0 * 2 + h) * 4 + 2) * 2 + x] = -1 - (0 * 4 + 2 * h + x);
                    want[((2 * 2 + h) * 4 + 0) * 2 + x] = -1 - (2 * 4 + 2 * h + x);
                }
            cg.run(Map.of("k_new", kNew, "start", first)).close();
            try (HostTensor now = cache.download()) {
                assertThat(now.toFloatArray()).as("after starts [2, -1, 0]").containsExactly(want);
            }
            for (int h = 0; h < 2; h++)
                for (int x = 0; x < 2; x++) want[((1 * 2 + h) * 4 + 3) * 2 + x] = -1 - (1 * 4 + 2 * h + x);
            cg.run(Map.of("k_new", kNew, "start", second)).close();
            try (HostTensor now = cache.download()) {
                assertThat(now.toFloatArray()).as("after starts [-1, 3, -7]").containsExactly(want);
            }
        }
    }

    /**
     * A per-batch start past the end fails the run naming the element and the range, before anything is written: the
     * elements whose starts fit keep their values too. A start that fits exactly then runs.
     */
    @Test
    void aPerBatchStartPastTheEndFailsTheRunAndWritesNothing() {
        float[] init = new float[(int) SLOTS.elements()];
        for (int i = 0; i < init.length; i++) init[i] = i;
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                PersistentTensor cache = engine.state("k", DType.F32, SLOTS);
                CompiledGraph cg = engine.compile(appendPerBatch(2), cache);
                HostTensor initial = HostTensor.ofFloats(SLOTS, init);
                HostTensor kNew = HostTensor.allocate(DType.F32, Shape.of(3, 2, 2, 2));
                HostTensor past = HostTensor.ofInts(Shape.of(3), 0, 3, -1);
                HostTensor fits = HostTensor.ofInts(Shape.of(3), -1, 2, -1)) {
            cache.upload(initial);
            assertThatThrownBy(() -> cg.run(Map.of("k_new", kNew, "start", past)))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("write_slice of 2 at position 3 for batch element 1")
                    .hasMessageContaining("0..2");
            try (HostTensor now = cache.download()) {
                assertThat(now.toFloatArray())
                        .as("element 0's start fit, but the run failed")
                        .containsExactly(init);
            }
            cg.run(Map.of("k_new", kNew, "start", fits)).close();
            try (HostTensor now = cache.download()) {
                float[] v = now.toFloatArray();
                assertThat(v[((1 * 2 + 0) * 4 + 2) * 2])
                        .as("element 1, position 2: written")
                        .isZero();
                assertThat(v[((1 * 2 + 1) * 4 + 3) * 2 + 1])
                        .as("element 1, position 3: written")
                        .isZero();
                assertThat(v[((1 * 2 + 0) * 4 + 1) * 2])
                        .as("element 1, position 1: kept")
                        .isEqualTo(18f);
            }
        }
    }

    /** Recurrent state: s ← tanh(s + x) every run, the state never leaving the backend. */
    @Test
    void overwriteCarriesRecurrentStateAndTheWriteCanBeAnOutput() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("s", Shape.of(5));
        Tensor next = g.overwrite(s, g.tanh(g.add(s, g.input("x", Shape.of(5)))));
        Graph graph = g.build(next.named("state"));
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                PersistentTensor st = engine.state("s", DType.F32, Shape.of(5));
                CompiledGraph cg = engine.compile(graph, st);
                HostTensor x = HostTensor.ofFloats(Shape.of(5), 0.1f, -0.2f, 0.3f, 0.5f, -1f)) {
            double[] expect = new double[5];
            for (int run = 0; run < 4; run++) {
                for (int i = 0; i < 5; i++) expect[i] = (float) Math.tanh(expect[i] + x.toFloatArray()[i]);
                try (CompiledGraph.Outputs out = cg.run(Map.of("x", x))) {
                    assertThat(out.get("state").toFloatArray())
                            .containsExactly(floats(expect), org.assertj.core.data.Offset.offset(1e-6f));
                }
            }
            assertThat(cg.summary().arenaBytes().get("CPU"))
                    .as("the state is not in the arena: only x and the tanh/add temporaries")
                    .isLessThanOrEqualTo(3 * 256L);
        }
    }

    @Test
    void bindingErrorsNameWhatIsMissingOrWrong() {
        Graph graph = appendAndScore(1);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                PersistentTensor wrongShape = engine.state("k", DType.F32, Shape.of(1, 2, 12, 8));
                PersistentTensor other = engine.state("v", DType.F32, CACHE)) {
            assertThatThrownBy(() -> engine.compile(graph))
                    .hasMessageContaining("graph state 'k'")
                    .hasMessageContaining("not bound");
            assertThatThrownBy(() -> engine.compile(graph, wrongShape)).hasMessageContaining("is F32 [1, 2, 13, 8]");
            assertThatThrownBy(() -> engine.compile(graph, other)).hasMessageContaining("'k'");
            PersistentTensor k = engine.state("k", DType.F32, CACHE);
            CompiledGraph cg = engine.compile(graph, k);
            k.close();
            assertThatThrownBy(() -> cg.run(Map.of()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'k' is closed");
            cg.close();
        }
    }

    private static HostTensor random(SplittableRandom rnd, Shape s) {
        float[] v = new float[Math.toIntExact(s.elements())];
        for (int i = 0; i < v.length; i++) v[i] = (float) (rnd.nextDouble() * 2 - 1);
        return HostTensor.ofFloats(s, v);
    }

    private static float[] floats(double[] d) {
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
        return f;
    }
}
