package dev.audioengine.backend.vulkan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.reference.ReferenceEvaluator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A small model-shaped graph through the engine (memory planner arenas, shared weights, views at
 * arena offsets) on Vulkan with CPU fallback off: every node runs natively in one compiled
 * segment, one submit per run, and the result equals the float64 reference.
 */
class VulkanEngineTest {

    @Test
    void aWholeGraphRunsAsOneVulkanSegment() {
        assumeTrue(new VulkanBackendProvider().probe().available(), "no Vulkan device here");
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("audio", Shape.of(1, 8, 100));
        Tensor conv = g.conv1d(
                x,
                g.constant(HostTensor.ofFloats(Shape.of(16, 8, 5), r.normal(16 * 8 * 5, 0, 0.3))),
                g.constant(HostTensor.ofFloats(Shape.of(16), r.normal(16, 0, 0.1))),
                2,
                2,
                1,
                1);
        Tensor act = g.silu(g.groupNorm(conv, 4, null, null, 1e-5f));
        Tensor frames = g.permute(act, 0, 2, 1); // [1, 50, 16] view
        Tensor proj = g.matmul(
                frames, g.constant(HostTensor.convert(DType.F16, Shape.of(24, 16), r.normal(24 * 16, 0, 0.3))));
        Tensor normed = g.layerNorm(proj, null, null, 1e-5f);
        Tensor logits = g.sum(g.slice(normed, 2, 4, 20), -1, false); // [1, 50]
        Tensor probs = g.softmax(logits);
        Graph graph = g.build(probs.named("probs"), g.argmax(logits, -1).named("best"));

        try (AudioEngine engine = AudioEngine.builder()
                        .backend("vulkan")
                        .fallback(FallbackPolicy.FAIL)
                        .build();
                CompiledGraph compiled = engine.compile(graph)) {
            assertThat(compiled.summary().nodesPerBackend()).containsOnlyKeys("Vulkan");
            assertThat(compiled.summary().fallbackNodes()).isEmpty();
            assertThat(compiled.summary().copiesPerRun()).isZero();
            for (int run = 0; run < 2; run++) {
                HostTensor audio = HostTensor.ofFloats(Shape.of(1, 8, 100), r.normal(800, 0, 1));
                Map<String, HostTensor> in = Map.of("audio", audio);
                VulkanBackend vulkan = (VulkanBackend) engine.backend();
                long before = vulkan.submits();
                try (CompiledGraph.Outputs out = compiled.run(in)) {
                    if (vulkan.context().deviceMemoryMapped) {
                        assertThat(vulkan.submits() - before)
                                .as("submits per run (uploads and downloads are mapped copies)")
                                .isEqualTo(1);
                    }
                    Map<Tensor, double[]> expected = ReferenceEvaluator.evaluate(graph, in);
                    Closeness.assertNmse(
                            "probs, run " + run,
                            probs.shape(),
                            seed,
                            out.get("probs").toFloatArray(),
                            expected.get(probs),
                            1e-6);
                    double[] best = expected.get(graph.outputs().get(1));
                    float[] got = out.get("best").toFloatArray();
                    for (int i = 0; i < got.length; i++)
                        assertThat(got[i]).as(Seeds.describe(seed)).isEqualTo((float) best[i]);
                } finally {
                    audio.close();
                }
            }
        }
    }
}
