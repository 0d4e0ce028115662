package dev.audioengine.backend.vulkan;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.ffm.VkStruct;
import dev.audioengine.conformance.GuardedExecution;
import dev.audioengine.reference.ReferenceEvaluator;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Resource ownership, replay of one recorded command buffer, and the validation-message capture. */
class VulkanLifecycleTest {

    /** x [5, 33] -> matmul w [17, 33] -> gelu -> layer_norm -> softmax: four dispatches, one command buffer. */
    private static Graph chain(GraphBuilder g) {
        Tensor x = g.input("x", Shape.of(5, 33));
        Tensor w = g.input("w", Shape.of(17, 33));
        Tensor y = g.softmax(g.layerNorm(g.gelu(g.matmul(x, w)), null, null, 1e-5f));
        return g.build(y);
    }

    private static Map<String, HostTensor> inputs(RandomTensors r) {
        return Map.of(
                "x",
                HostTensor.ofFloats(Shape.of(5, 33), r.normal(5 * 33, 0, 1)),
                "w",
                HostTensor.ofFloats(Shape.of(17, 33), r.normal(17 * 33, 0, 0.3)));
    }

    @Test
    void oneRecordedSegmentReplaysWithNewInputs() {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        Graph graph = chain(new GraphBuilder());
        try (VulkanBackend backend = VulkanTestDevice.open();
                GuardedExecution run = new GuardedExecution(backend, graph)) {
            for (int replay = 0; replay < 3; replay++) {
                Map<String, HostTensor> in = inputs(r);
                run.run(in);
                double[] expected =
                        ReferenceEvaluator.evaluate(graph, in, graph.outputs().getFirst());
                double[] actual = run.values(graph.outputs().getFirst());
                float[] f = new float[actual.length];
                for (int i = 0; i < f.length; i++) f[i] = (float) actual[i];
                Closeness.assertNmse(
                        "replay " + replay + " of the recorded chain", Shape.of(5, 17), seed, f, expected, 1e-7);
                assertThat(run.memoryViolations()).as(Seeds.describe(seed)).isEmpty();
                in.values().forEach(HostTensor::close);
            }
            assertThat(backend.validationMessages()).isEmpty();
        }
    }

    @Test
    void openingAndClosingManyTimesLeavesNothingBehind() {
        Graph graph = chain(new GraphBuilder());
        RandomTensors r = new RandomTensors(Seeds.fresh());
        for (int round = 0; round < 12; round++) {
            VulkanBackend backend = VulkanTestDevice.open(Map.of("vulkan.staging", round % 2 == 0 ? "auto" : "always"));
            try (GuardedExecution run = new GuardedExecution(backend, graph)) {
                Map<String, HostTensor> in = inputs(r);
                run.run(in);
                in.values().forEach(HostTensor::close);
            }
            DeviceBuffer leftOpen = backend.allocate(1000); // the backend's close frees what its user did not
            assertThat(backend.liveObjects()).isEqualTo(1);
            backend.close();
            backend.close(); // idempotent
            // the validation layer reports every VkBuffer, pipeline or pool still alive at vkDestroyDevice
            assertThat(backend.validationMessages()).as("round " + round).isEmpty();
            assertThatThrownBy(() -> backend.allocate(16))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            leftOpen.close(); // after the backend: harmless
        }
    }

    @Test
    void uploadAndDownloadRoundTripAtOffsets() {
        for (String staging : List.of("auto", "always")) {
            try (VulkanBackend backend = VulkanTestDevice.open(Map.of("vulkan.staging", staging));
                    Arena arena = Arena.ofConfined()) {
                DeviceBuffer b = backend.allocate(4096 + 7);
                MemorySegment src = arena.allocate(1000);
                for (int i = 0; i < 1000; i++) src.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
                backend.upload(b, 3007, src);
                MemorySegment back = arena.allocate(1000);
                backend.download(b, 3007, back);
                assertThat(back.mismatch(src)).as("staging " + staging).isEqualTo(-1);
                assertThatThrownBy(() -> backend.upload(b, 4000, src))
                        .isInstanceOf(IndexOutOfBoundsException.class)
                        .hasMessageContaining("outside a buffer of 4103");
            }
        }
    }

    @Test
    void validationErrorsAreCaptured() {
        try (VulkanBackend backend = VulkanTestDevice.open(Map.of("vulkan.validation", "auto"))) {
            assumeTrue(
                    backend.validationEnabled(),
                    "the Khronos validation layer is not installed (vulkan-validationlayers)");
            VulkanContext ctx = backend.context();
            try (Arena a = Arena.ofConfined()) {
                // size 0 breaks VUID-VkBufferCreateInfo-size-00912
                VkStruct info = VkStruct.typed(a, BUFFER_CREATE, BUFFER_CREATE_INFO)
                        .l("size", 0)
                        .i("usage", BUFFER_USAGE_STORAGE);
                MemorySegment out = a.allocate(JAVA_LONG);
                int result = ctx.api.result("vkCreateBuffer", ctx.device, info.segment, MemorySegment.NULL, out);
                if (result == 0 && out.get(JAVA_LONG, 0) != 0)
                    ctx.api.call("vkDestroyBuffer", ctx.device, out.get(JAVA_LONG, 0), MemorySegment.NULL);
            }
            assertThat(backend.validationMessages())
                    .anySatisfy(m -> assertThat(m).startsWith("error: ").contains("size"));
        }
    }

    @Test
    void unknownOptionValuesAreRejected() {
        VulkanBackendProvider provider = new VulkanBackendProvider();
        assumeTrue(provider.probe().available());
        assertThatThrownBy(() -> VulkanTestDevice.open(Map.of("vulkan.staging", "sometimes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("vulkan.staging must be auto or always");
    }

    @Test
    void unsupportedNodesAreRefusedNotMiscomputed() {
        GraphBuilder g = new GraphBuilder();
        Tensor huge = g.input("x", Shape.of(3, 1L << 30)); // shaders index with 32-bit unsigned ints
        Tensor y = g.relu(huge);
        Tensor small = g.relu(g.input("s", Shape.of(3, 5)));
        g.build(y, small);
        try (VulkanBackend backend = VulkanTestDevice.open()) {
            assertThat(backend.supportsOp(y)).as("a tensor past 2^31 elements").isFalse();
            assertThat(backend.supportsOp(small)).isTrue();
        }
    }
}
