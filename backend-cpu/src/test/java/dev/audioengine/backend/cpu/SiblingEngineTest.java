package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AudioEngine.sibling opens another engine on the same backend and device with the same settings (BEST resolved to
 * the backend it chose), its own backend instance, that outlives the engine it came from.
 */
class SiblingEngineTest {
    @Test
    void aSiblingHasTheSettingsAndItsOwnBackendAndOutlivesTheOriginal() {
        AudioEngine sibling;
        try (AudioEngine engine = AudioEngine.builder()
                .backend(BackendType.CPU)
                .threads(1)
                .option("cpu.op-threads", "all")
                .capability("-fused_attention")
                .build()) {
            sibling = engine.sibling();
            assertThat(sibling.backend()).isNotSameAs(engine.backend());
            assertThat(sibling.backend().getClass()).isEqualTo(engine.backend().getClass());
            assertThat(sibling.hostThreads()).isEqualTo(1);
            assertThat(sibling.overrides()).isEqualTo(engine.overrides());
            assertThat(((CpuBackend) sibling.backend()).threads()).isEqualTo(1);
        }
        try (sibling) {
            GraphBuilder g = new GraphBuilder();
            Tensor x = g.input("x", Shape.of(3));
            try (CompiledGraph c = sibling.compile(g.build(g.scale(x, 2f)));
                    HostTensor in = HostTensor.ofFloats(Shape.of(3), 1, 2, 3);
                    CompiledGraph.Outputs out = c.run(Map.of("x", in))) {
                assertThat(out.get(0).toFloatArray()).containsExactly(2, 4, 6);
            }
        }
    }

    @Test
    void aCpuEngineHasNoSideEngineItsCoresWouldBeShared() {
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(1).build()) {
            assertThat(engine.sideEngine()).isEmpty();
        }
    }

    @Test
    void aClosedEngineHasNoSiblings() {
        AudioEngine engine = AudioEngine.builder().backend("cpu").threads(1).build();
        engine.close();
        assertThatThrownBy(engine::sibling)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }
}
