package dev.audioengine.backend.vulkan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.backend.vulkan.kernels.LinearKernels;
import dev.audioengine.conformance.GuardedExecution;
import dev.audioengine.reference.ReferenceEvaluator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Matmul shapes past the catalogue's: outputs that make at least 256 tiles of 128 x 128 take
 * matmul_large.comp; edges one past a tile, batches and quantized weights, against float64.
 */
class VulkanMatmulTilesTest {

    @Test
    void theShapesBelowExerciseBothKernels() {
        assertThat(LinearKernels.largeTiles(128, 128, 1)).isFalse();
        assertThat(LinearKernels.largeTiles(129, 257, 16)).isFalse();
        assertThat(LinearKernels.largeTiles(2049, 2049, 1)).isTrue();
        assertThat(LinearKernels.largeTiles(256, 130, 64)).isTrue();
        assertThat(LinearKernels.largeTiles(2048, 2176, 1)).isTrue();
        assertThat(LinearKernels.largeTiles(200, 129, 128)).isTrue();
        assertThat(LinearKernels.largeTiles(1024, 1024, 1))
                .as("64 large tiles would idle most of a big GPU")
                .isFalse();
    }

    private static void check(
            VulkanBackend backend,
            long seed,
            int batch,
            int m,
            int n,
            int k,
            DType wType,
            boolean transposedW,
            double bound) {
        RandomTensors r = new RandomTensors(seed);
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(batch, m, k));
        Tensor w = transposedW
                ? g.transpose(g.input("w", wType, Shape.of(k, n)), 0, 1)
                : g.input("w", wType, Shape.of(n, k));
        Graph graph = g.build(g.matmul(x, w));
        Shape wShape = transposedW ? Shape.of(k, n) : Shape.of(n, k);
        try (HostTensor xv = HostTensor.ofFloats(Shape.of(batch, m, k), r.normal(batch * m * k, 0, 1));
                HostTensor wv = HostTensor.convert(wType, wShape, r.normal(n * k, 0, 0.5));
                GuardedExecution run = new GuardedExecution(backend, graph)) {
            Map<String, HostTensor> in = Map.of("x", xv, "w", wv);
            run.run(in);
            double[] expected =
                    ReferenceEvaluator.evaluate(graph, in, graph.outputs().getFirst());
            double[] actual = run.values(graph.outputs().getFirst());
            float[] f = new float[actual.length];
            for (int i = 0; i < f.length; i++) f[i] = (float) actual[i];
            String what = "matmul " + batch + "x[" + m + "," + k + "] w " + wType + (transposedW ? " transposed" : "")
                    + " [" + n + "," + k + "]";
            Closeness.assertNmse(what, Shape.of(batch, m, n), seed, f, expected, bound);
            assertThat(run.memoryViolations())
                    .as(what + " " + Seeds.describe(seed))
                    .isEmpty();
        }
    }

    @Test
    void largeTilesMatchFloat64() {
        long seed = Seeds.fresh();
        try (VulkanBackend backend = VulkanTestDevice.open()) {
            check(backend, seed, 1, 128, 128, 64, DType.F32, false, 1e-7); // one large tile: the small kernel
            check(backend, seed + 1, 16, 129, 257, 96, DType.F32, false, 1e-7); // 16 x 2 x 3 = 96 large tiles: small
            check(
                    backend, seed + 2, 1, 2049, 2049, 32, DType.F32, true,
                    1e-7); // 17 x 17 = 289 large tiles, ragged edges
            check(backend, seed + 3, 64, 256, 130, 64, DType.F16, false, 1e-6); // 64 x 2 x 2 = 256
            check(backend, seed + 4, 1, 2048, 2176, 64, DType.Q8_0, false, 5e-4); // 16 x 17 = 272
            check(backend, seed + 5, 128, 200, 129, 32, DType.Q4_0, false, 5e-4); // 128 x 2 x 2 = 512
            // the 5-bit and minimum block types through the large tiles too (their fifth bits and m as in gemv)
            check(backend, seed + 6, 64, 256, 130, 64, DType.Q5_0, false, 5e-4); // 256
            check(backend, seed + 7, 1, 2048, 2176, 32, DType.Q5_1, false, 5e-4); // 272
            check(backend, seed + 8, 128, 200, 129, 32, DType.Q4_1, false, 5e-4); // 512
            // the k-quants: rows of 256-value super-blocks (210, 110 and 84 bytes leave rows off word boundaries)
            check(backend, seed + 9, 1, 2048, 2176, 256, DType.Q6_K, false, 5e-4); // 272
            check(backend, seed + 10, 64, 256, 130, 512, DType.Q4_K, false, 5e-4); // 256
            check(backend, seed + 11, 128, 200, 129, 256, DType.Q5_K, false, 5e-4); // 512
            check(backend, seed + 12, 64, 256, 130, 256, DType.Q3_K, false, 5e-4); // 256
            check(backend, seed + 13, 1, 2048, 2176, 512, DType.Q2_K, false, 5e-4); // 272
            assertThat(backend.validationMessages()).isEmpty();
        }
    }
}
