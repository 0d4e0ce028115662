package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The whole path once: builder, ServiceLoader, plan, compile, run, download, close. */
class EngineSmokeTest {
    @Test
    void broadcastAddThroughTheEngine() {
        GraphBuilder g = new GraphBuilder();
        Tensor a = g.input("a", Shape.of(2, 3));
        Tensor b = g.input("b", Shape.of(3));
        Tensor viewOfSum = g.transpose(g.add(a, b), 0, 1).named("sumT");
        Graph graph = g.build(viewOfSum);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                CompiledGraph cg = engine.compile(graph);
                HostTensor av = HostTensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
                HostTensor bv = HostTensor.ofFloats(Shape.of(3), 10, 20, 30);
                CompiledGraph.Outputs out = cg.run(Map.of("a", av, "b", bv))) {
            assertThat(out.get("sumT").shape()).isEqualTo(Shape.of(3, 2));
            assertThat(out.get(0).toFloatArray()).containsExactly(11, 14, 22, 25, 33, 36);
            assertThat(cg.summary().nodesPerBackend()).containsEntry("CPU", 1);
            assertThat(cg.summary().describe())
                    .as("the CPU has no backend detail to add")
                    .startsWith("backend CPU, nodes {CPU=1}");
        }
    }

    @Test
    void runIntoReusesCallerTensorsAndChecksThem() {
        GraphBuilder g = new GraphBuilder();
        Tensor a = g.input("a", Shape.of(2, 3));
        Graph graph = g.build(g.transpose(g.scale(a, 2f), 0, 1), a);
        try (AudioEngine engine = AudioEngine.builder().build();
                CompiledGraph cg = engine.compile(graph);
                HostTensor av = HostTensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
                HostTensor y = HostTensor.allocate(dev.audioengine.api.tensor.DType.F32, Shape.of(3, 2));
                HostTensor echo = HostTensor.allocate(dev.audioengine.api.tensor.DType.F32, Shape.of(2, 3));
                HostTensor wrong = HostTensor.allocate(dev.audioengine.api.tensor.DType.F32, Shape.of(2, 3))) {
            for (int run = 0; run < 2; run++) {
                cg.runInto(Map.of("a", av), java.util.List.of(y, echo));
                assertThat(y.toFloatArray()).containsExactly(2, 8, 4, 10, 6, 12);
                assertThat(echo.toFloatArray()).containsExactly(1, 2, 3, 4, 5, 6);
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> cg.runInto(Map.of("a", av), java.util.List.of(wrong, echo)))
                    .hasMessageContaining("output 0 must be F32 [3, 2]");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cg.runInto(Map.of("a", av), java.util.List.of(y)))
                    .hasMessageContaining("2 output(s), 1 tensor(s)");
        }
    }
}
