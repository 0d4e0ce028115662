package dev.audioengine.backend.cpu;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole path once: builder, ServiceLoader, plan, compile, run, download, close. */
class EngineSmokeTest {
    @Test
    void broadcastAddThroughTheEngine() {
        GraphBuilder g = new GraphBuilder();
        Tensor a = g.input("a", Shape.of(2, 3));
        Tensor b = g.input("b", Shape.of(3));
        Tensor viewOfSum = g.transpose(g.add(a, b), 0, 1).named("sumT");
        Graph graph = g.build(viewOfSum);
        try (AudioEngine engine = AudioEngine.builder().backend("cpu").threads(2).build();
             CompiledGraph cg = engine.compile(graph);
             HostTensor av = HostTensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
             HostTensor bv = HostTensor.ofFloats(Shape.of(3), 10, 20, 30);
             CompiledGraph.Outputs out = cg.run(Map.of("a", av, "b", bv))) {
            assertThat(out.get("sumT").shape()).isEqualTo(Shape.of(3, 2));
            assertThat(out.get(0).toFloatArray()).containsExactly(11, 14, 22, 25, 33, 36);
            assertThat(cg.summary().nodesPerBackend()).containsEntry("CPU", 1);
        }
    }
}
