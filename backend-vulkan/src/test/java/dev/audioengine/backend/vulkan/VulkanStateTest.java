package dev.audioengine.backend.vulkan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.ConformanceCase;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.conformance.Float64Reference;
import dev.audioengine.conformance.GuardedExecution;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Persistent tensors on Vulkan (lavapipe in CI): the multi-run state cases against float64 with
 * the validation layer watching, and the documented behaviour past the capacity: the shader
 * drops what would land outside, and the guards around the persistent tensor stay intact.
 */
class VulkanStateTest {

    @Test
    void stateCasesPassAgainstFloat64() {
        long seed = Seeds.fresh();
        List<ConformanceCase> cases = Stream.concat(
                        CaseCatalogue.select("write_slice", null).stream(),
                        CaseCatalogue.select("key_mask", null).stream())
                .toList();
        try (VulkanBackend backend = VulkanTestDevice.open()) {
            ConformanceReport report =
                    new ConformanceHarness(backend, new Float64Reference()).run(cases, seed, r -> {});
            String bad = report.results().stream()
                    .filter(r -> r.status() != dev.audioengine.conformance.CaseResult.Status.PASS)
                    .map(r -> r.testCase().id() + ": " + r.status() + " " + r.message())
                    .collect(Collectors.joining("\n  "));
            assertThat(report.passed()).as(Seeds.describe(seed) + ":\n  " + bad).isEqualTo(cases.size());
            assertThat(backend.validationMessages())
                    .as("Khronos validation layer messages")
                    .isEmpty();
        }
    }

    @Test
    void writesPastEitherEndAreDroppedAndTouchNothingOutside() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("cache", Shape.of(1, 6, 4));
        Tensor w = g.writeSlice(s, g.input("src", Shape.of(1, 3, 4)), 1, g.input("start", DType.I32, Shape.of(1)));
        Graph graph = g.build(w);
        float[] initial = new float[24], src = new float[12];
        for (int i = 0; i < 24; i++) initial[i] = 100 + i;
        for (int i = 0; i < 12; i++) src[i] = -1 - i;
        try (VulkanBackend backend = VulkanTestDevice.open();
                GuardedExecution run = new GuardedExecution(backend, graph);
                HostTensor init = HostTensor.ofFloats(Shape.of(1, 6, 4), initial);
                HostTensor x = HostTensor.ofFloats(Shape.of(1, 3, 4), src)) {
            for (int start : new int[] {4, -1}) {
                run.setState("cache", init);
                try (HostTensor at = HostTensor.ofInts(Shape.of(1), start)) {
                    run.run(Map.of("src", x, "start", at));
                }
                assertThat(run.memoryViolations()).as("start " + start).isEmpty();
                double[] got = run.values(w);
                for (int pos = 0; pos < 6; pos++) {
                    int from = pos - start; // the source row that lands here, if any
                    for (int c = 0; c < 4; c++) {
                        double expect = from >= 0 && from < 3 ? src[from * 4 + c] : initial[pos * 4 + c];
                        assertThat(got[pos * 4 + c])
                                .as("start %d position %d", start, pos)
                                .isEqualTo(expect);
                    }
                }
            }
            assertThat(backend.validationMessages()).isEmpty();
        }
    }

    @Test
    void perBatchStartsSkipNegativeOnesAndDropWhatFallsPastTheCapacity() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("cache", Shape.of(3, 6, 4));
        Tensor w = g.writeSlice(s, g.input("src", Shape.of(3, 2, 4)), 1, g.input("start", DType.I32, Shape.of(3)));
        Graph graph = g.build(w);
        float[] initial = new float[72], src = new float[24];
        for (int i = 0; i < 72; i++) initial[i] = 100 + i;
        for (int i = 0; i < 24; i++) src[i] = -1 - i;
        int[] starts = {5, -1, 1}; // element 0 half past the end, 1 skipped (an empty slot), 2 inside
        try (VulkanBackend backend = VulkanTestDevice.open();
                GuardedExecution run = new GuardedExecution(backend, graph);
                HostTensor init = HostTensor.ofFloats(Shape.of(3, 6, 4), initial);
                HostTensor x = HostTensor.ofFloats(Shape.of(3, 2, 4), src);
                HostTensor at = HostTensor.ofInts(Shape.of(3), starts)) {
            run.setState("cache", init);
            run.run(Map.of("src", x, "start", at));
            assertThat(run.memoryViolations()).isEmpty();
            double[] got = run.values(w);
            for (int b = 0; b < 3; b++) {
                for (int pos = 0; pos < 6; pos++) {
                    int from = starts[b] < 0 ? -1 : pos - starts[b];
                    for (int c = 0; c < 4; c++) {
                        int e = (b * 6 + pos) * 4 + c;
                        double expect = from >= 0 && from < 2 ? src[(b * 2 + from) * 4 + c] : initial[e];
                        assertThat(got[e]).as("batch %d position %d", b, pos).isEqualTo(expect);
                    }
                }
            }
            assertThat(backend.validationMessages()).isEmpty();
        }
    }
}
