package dev.audioengine.gpu.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.gpu.gemm.GpuBlas;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The native structs and argument packing the GPU op layer relies on, checked without a GPU. */
class BindingLayoutTest {

    @Test
    void tensorDescriptorMatchesTheKernelsStruct() {
        // struct TD { i64 n[4]; i64 s[4]; } in ae_tensor.h
        assertThat(TensorDesc.LAYOUT.byteSize()).isEqualTo(64);
        assertThat(TensorDesc.LAYOUT.byteOffset(PathElement.groupElement("s"))).isEqualTo(32);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(TensorDesc.LAYOUT);
            new TensorDesc(new long[] {1, 2, 3, 4}, new long[] {0, 12, 4, 1}).write(s);
            assertThat(s.toArray(JAVA_LONG)).containsExactly(1, 2, 3, 4, 0, 12, 4, 1);
        }
    }

    @Test
    void launchArgumentsAreOneSlotPerParameterInOrder() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = new LaunchArgs(a)
                    .i32(7)
                    .f32(1.5f)
                    .i64(1L << 40)
                    .ptr(0xdead0000L)
                    .desc(TensorDesc.padded(new long[] {5}, new long[] {1}))
                    .pack();
            assertThat(params.reinterpret(5 * ADDRESS.byteSize())
                            .get(ADDRESS, 0)
                            .reinterpret(4)
                            .get(JAVA_INT, 0))
                    .isEqualTo(7);
            MemorySegment p = params.reinterpret(5 * ADDRESS.byteSize());
            assertThat(p.getAtIndex(ADDRESS, 1).reinterpret(4).get(JAVA_FLOAT, 0))
                    .isEqualTo(1.5f);
            assertThat(p.getAtIndex(ADDRESS, 2).reinterpret(8).get(JAVA_LONG, 0))
                    .isEqualTo(1L << 40);
            assertThat(p.getAtIndex(ADDRESS, 3).reinterpret(8).get(JAVA_LONG, 0))
                    .isEqualTo(0xdead0000L);
            assertThat(p.getAtIndex(ADDRESS, 4).reinterpret(64).toArray(JAVA_LONG))
                    .containsExactly(1, 1, 1, 5, 0, 0, 0, 1);
        }
    }

    @Test
    void descriptorsPadBroadcastAndMoveTheReducedAxisLast() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", DType.F32, Shape.of(2, 3, 5));
        assertThat(TensorDesc.of(x)).isEqualTo(new TensorDesc(new long[] {1, 2, 3, 5}, new long[] {0, 15, 5, 1}));
        assertThat(TensorDesc.rows(x, 1)).isEqualTo(new TensorDesc(new long[] {1, 2, 5, 3}, new long[] {0, 15, 1, 5}));
        Tensor b = g.input("b", DType.F32, Shape.of(3, 1));
        assertThat(TensorDesc.broadcast(b, Shape.of(2, 3, 5)))
                .isEqualTo(new TensorDesc(new long[] {1, 2, 3, 5}, new long[] {0, 0, 1, 0}));
        Tensor t = g.transpose(x, 1, 2);
        assertThat(TensorDesc.of(t)).isEqualTo(new TensorDesc(new long[] {1, 2, 5, 3}, new long[] {0, 15, 1, 5}));
    }

    @Test
    void matmulOperandsBroadcastBatchesAndCollapseOnlyUniformStrides() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", DType.F32, Shape.of(2, 3, 5, 64));
        Tensor w = g.input("w", DType.F32, Shape.of(3, 17, 64));
        long[] out = g.matmul(x, w).shape().dims();
        TensorDesc wd = LinearOps.operand(w, out), xd = LinearOps.operand(x, out);
        assertThat(wd).isEqualTo(new TensorDesc(new long[] {2, 3, 17, 64}, new long[] {0, 17 * 64, 64, 1}));
        assertThat(LinearOps.collapseBatch(wd))
                .as("w repeats over the first batch axis: no single stride")
                .isNull();
        assertThat(LinearOps.collapseBatch(xd)).containsExactly(6, 5 * 64);
        Tensor w2 = g.input("w2", DType.F32, Shape.of(1, 40, 64));
        TensorDesc w2d = LinearOps.operand(
                w2,
                g.matmul(g.input("x2", DType.F32, Shape.of(4, 7, 64)), w2)
                        .shape()
                        .dims());
        assertThat(w2d.s()[0]).isZero();
        assertThat(w2d.s()[1]).isZero();
    }

    @Test
    void quantizedViewsBecomeBlockViews() {
        GraphBuilder g = new GraphBuilder();
        Tensor q = g.input("q", DType.Q8_0, Shape.of(6, 64));
        Tensor rows = g.slice(q, 0, 1, 6, 2);
        assertThat(LayoutOps.blockView(rows))
                .isEqualTo(new TensorDesc(new long[] {1, 1, 3, 2}, new long[] {0, 0, 4, 1}));
        assertThat(LayoutOps.blockView(g.slice(g.input("q2", DType.Q4_0, Shape.of(4, 96)), 0, 1, 4)))
                .isEqualTo(new TensorDesc(new long[] {1, 1, 3, 3}, new long[] {0, 0, 3, 1}));
        // k-quants: whole 256-value super-blocks
        assertThat(LayoutOps.blockView(g.slice(g.input("k", DType.Q6_K, Shape.of(4, 512)), 0, 1, 4)))
                .isEqualTo(new TensorDesc(new long[] {1, 1, 3, 2}, new long[] {0, 0, 2, 1}));
    }

    @Test
    void alignmentIsTheLargestPowerOfTwoUpTo256() {
        assertThat(GpuBlas.alignment(0x1000)).isEqualTo(256);
        assertThat(GpuBlas.alignment(0x1004)).isEqualTo(4);
        assertThat(GpuBlas.alignment(0x1010)).isEqualTo(16);
    }
}
