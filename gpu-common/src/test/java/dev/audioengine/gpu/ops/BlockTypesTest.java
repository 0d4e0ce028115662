package dev.audioengine.gpu.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CUDA and HIP support every op that reads a block type, since their kernels decode all the engine's (the 32-value
 * blocks and the k-quants); a block type added to DType without kernels here fails everyBlockTypeOfTheEngineIsListed
 * until BlockTypes admits it.
 */
class BlockTypesTest {
    private static final DeviceLimits LIMITS = new DeviceLimits(48 * 1024);

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"Q8_0", "Q4_0", "Q5_0", "Q5_1", "Q4_1", "Q6_K", "Q4_K", "Q5_K", "Q3_K", "Q2_K"})
    void opsReadingABlockTypeAreSupportedWhereTheKernelsDecodeIt(DType t) {
        assertThat(BlockTypes.decoded(t)).as(t.name()).isTrue();
        GraphBuilder g = new GraphBuilder();
        Tensor w = g.input("w", t, Shape.of(3, 256));
        Tensor matmul = g.matmul(g.input("x", Shape.of(1, 256)), w);
        Tensor rows = g.getRows(w, g.input("ids", DType.I32, Shape.of(2)));
        Tensor widen = g.cast(w, DType.F32);
        Tensor narrow = g.cast(g.input("y", Shape.of(2, 256)), t);
        for (Tensor node : new Tensor[] {matmul, rows, widen, narrow})
            assertThat(GpuOps.supports(node, LIMITS)).as(t + " " + node.op()).isTrue();
    }

    @org.junit.jupiter.api.Test
    void everyBlockTypeOfTheEngineIsListed() {
        for (DType t : DType.values())
            assertThat(BlockTypes.decoded(t))
                    .as(t + " has kernels (or is plain)")
                    .isTrue();
    }

    /** The kernels LinearOps names by type (not literals its launches hold, which KernelSourcesCompileTest reads). */
    @org.junit.jupiter.api.Test
    void everyBlockTypesKernelsAreDefined() {
        String linear = dev.audioengine.gpu.compile.KernelSources.text("linear.cu");
        for (DType t : DType.values()) {
            if (t.isQuantized())
                assertThat(linear).as(t + " mat-vec").contains("GC_KERNEL void " + LinearOps.matvecKernel(t) + "(");
            assertThat(linear)
                    .as(t + " tiled matmul")
                    .contains("GC_KERNEL void " + (LinearOps.basicWeight(t) ? "ae_matmul(" : "ae_matmul_blocks("));
        }
    }
}
