package dev.audioengine.gpu.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CUDA and HIP say unsupported for the block types their kernels do not decode (the k-quants), for every op that would
 * read them, rather than reading their bytes as another type's; the types they do decode (Q8_0, Q4_0, Q5_0, Q5_1,
 * Q4_1) are supported, so this test fails both ways.
 */
class BlockTypesTest {
    private static final DeviceLimits LIMITS = new DeviceLimits(48 * 1024);

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"Q8_0", "Q4_0", "Q5_0", "Q5_1", "Q4_1", "Q6_K", "Q4_K", "Q5_K", "Q3_K", "Q2_K"})
    void opsReadingABlockTypeAreSupportedOnlyWhereTheKernelsDecodeIt(DType t) {
        boolean decoded = t.blockSize() == 32;
        assertThat(BlockTypes.decoded(t)).as(t.name()).isEqualTo(decoded);
        GraphBuilder g = new GraphBuilder();
        Tensor w = g.input("w", t, Shape.of(3, 256));
        Tensor matmul = g.matmul(g.input("x", Shape.of(1, 256)), w);
        Tensor rows = g.getRows(w, g.input("ids", DType.I32, Shape.of(2)));
        Tensor widen = g.cast(w, DType.F32);
        Tensor narrow = g.cast(g.input("y", Shape.of(2, 256)), t);
        for (Tensor node : new Tensor[] {matmul, rows, widen, narrow})
            assertThat(GpuOps.supports(node, LIMITS)).as(t + " " + node.op()).isEqualTo(decoded);
    }
}
