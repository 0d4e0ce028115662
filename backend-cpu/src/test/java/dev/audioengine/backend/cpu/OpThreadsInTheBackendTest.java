package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The backend gives each op the threads its work calls for: a streaming-sized graph on a
 * 2-thread backend never hands work to a worker (before, every op of two or more rows split over
 * all threads, which made a Silero VAD chunk 13-18x slower on two cores than on one), a large
 * product does; {@code cpu.op-threads=all} restores the split of every op (what the kernel tests
 * use to cover the split code paths on small shapes).
 */
class OpThreadsInTheBackendTest {

    @Test
    void aSmallGraphRunsOnTheCallingThreadALargeProductSplits() {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two processors for a 2-thread pool");
        assertThat(workersAfterRunning(smallGraph(), "auto"))
                .as("small ops stay on the caller")
                .isZero();
        assertThat(workersAfterRunning(smallGraph(), "all"))
                .as("every op split, as before")
                .isPositive();
        assertThat(workersAfterRunning(largeProduct(), "auto"))
                .as("a 512^3 product splits")
                .isPositive();
    }

    @Test
    void moreThreadsThanProcessorsAreClampedWithAWarning() {
        List<String> warnings = new ArrayList<>();
        assertThat(CpuBackendProvider.workerThreads(100_000, 2, warnings::add)).isEqualTo(2);
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("100000 threads asked for", "2 available processors", "using 2");
        warnings.clear();
        assertThat(CpuBackendProvider.workerThreads(2, 2, warnings::add)).isEqualTo(2);
        assertThat(warnings).isEmpty();
        // 100000 used to reach ForkJoinPool, whose IllegalArgumentException has no message ("error: null")
        int processors = Runtime.getRuntime().availableProcessors();
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(100_000).build()) {
            assertThat(((CpuBackend) engine.backend()).threads()).isEqualTo(processors);
        }
    }

    private static int workersAfterRunning(GraphAndInputs gi, String opThreads) {
        try (AudioEngine engine = AudioEngine.builder()
                        .backend("cpu")
                        .threads(2)
                        .option("cpu.op-threads", opThreads)
                        .build();
                CompiledGraph cg = engine.compile(gi.graph())) {
            for (int i = 0; i < 3; i++) cg.run(gi.inputs()).close();
            return ((CpuBackend) engine.backend()).startedWorkers();
        } finally {
            gi.inputs().values().forEach(HostTensor::close);
        }
    }

    private record GraphAndInputs(Graph graph, Map<String, HostTensor> inputs) {}

    /** A streaming-VAD-sized chain: conv1d 64 -> 64 over 4 frames, ReLU, a 4 x 64 x 64 product. */
    private static GraphAndInputs smallGraph() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(1, 64, 4)),
                w = g.input("w", Shape.of(64, 64, 3)),
                p = g.input("p", Shape.of(64, 64));
        Tensor y = g.matmul(g.transpose(g.relu(g.conv1d(x, w, null, 1, 1, 1, 1)), 1, 2), p);
        return new GraphAndInputs(
                g.build(y),
                Map.of(
                        "x",
                        filled(Shape.of(1, 64, 4)),
                        "w",
                        filled(Shape.of(64, 64, 3)),
                        "p",
                        filled(Shape.of(64, 64))));
    }

    private static GraphAndInputs largeProduct() {
        GraphBuilder g = new GraphBuilder();
        Tensor y = g.matmul(g.input("a", Shape.of(512, 512)), g.input("b", Shape.of(512, 512)));
        return new GraphAndInputs(g.build(y), Map.of("a", filled(Shape.of(512, 512)), "b", filled(Shape.of(512, 512))));
    }

    private static HostTensor filled(Shape s) {
        float[] v = new float[(int) s.elements()];
        for (int i = 0; i < v.length; i++) v[i] = (i % 7) * 0.25f - 0.75f;
        return HostTensor.ofFloats(s, v);
    }
}
