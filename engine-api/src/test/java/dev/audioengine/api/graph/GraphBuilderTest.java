package dev.audioengine.api.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

/** Shape inference matches PyTorch's formulas; mistakes fail at build time with both shapes. */
class GraphBuilderTest {
    @Test
    void convolutionOutputLengths() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(2, 4, 100));
        Tensor w = g.input("w", Shape.of(6, 2, 5));
        // (100 + 2*3 - 2*(5-1) - 1)/3 + 1 = 33
        assertThat(g.conv1d(x, w, null, 3, 3, 2, 2).shape()).isEqualTo(Shape.of(2, 6, 33));
        Tensor wt = g.input("wt", Shape.of(4, 3, 7));
        // (100-1)*4 - 2*2 + 1*(7-1) + 1 + 1 = 400
        assertThat(g.convTranspose1d(x, wt, null, 4, 2, 1, 1, 1).shape()).isEqualTo(Shape.of(2, 3, 400));
        assertThatThrownBy(() -> g.conv1d(x, g.input("bad", Shape.of(6, 3, 5)), null, 1, 0, 1, 2))
                .hasMessageContaining("[2, 4, 100]")
                .hasMessageContaining("[6, 3, 5]");
    }

    @Test
    void matmulBroadcastsBatchAndChecksK() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(3, 1, 5, 8));
        Tensor w = g.input("w", Shape.of(4, 7, 8));
        assertThat(g.matmul(x, w).shape()).isEqualTo(Shape.of(3, 4, 5, 7));
        assertThatThrownBy(() -> g.matmul(x, g.input("w2", Shape.of(7, 9)))).hasMessageContaining("K]");
    }

    @Test
    void viewsShareStorageWithStrides() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(2, 3, 4));
        Tensor t = g.transpose(x, 1, 2);
        assertThat(t.shape()).isEqualTo(Shape.of(2, 4, 3));
        assertThat(t.strides()).containsExactly(12, 1, 4);
        assertThat(t.storage()).isSameAs(x);
        assertThat(t.isContiguous()).isFalse();
        Tensor s = g.slice(x, 2, 1, 4, 2);
        assertThat(s.shape()).isEqualTo(Shape.of(2, 3, 2));
        assertThat(s.offset()).isEqualTo(1);
        assertThat(s.strides()).containsExactly(12, 4, 2);
        // reshaping a non-contiguous view copies first, so the result is a view of a new root
        Tensor r = g.reshape(t, -1, 3);
        assertThat(r.shape()).isEqualTo(Shape.of(8, 3));
        assertThat(r.storage().op()).isInstanceOf(Op.Contiguous.class);
    }

    @Test
    void stftFramesFollowTorch() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(1, 16000));
        Tensor win = g.input("win", Shape.of(400));
        // center pads 200 each side: 1 + (16400 - 400) / 160 = 101 frames, 201 bins
        assertThat(g.stft(x, win, 400, 160, true).shape()).isEqualTo(Shape.of(1, 201, 101, 2));
    }

    @Test
    void buildKeepsOnlyWhatOutputsNeedInOrder() {
        GraphBuilder g = new GraphBuilder();
        Tensor a = g.input("a", Shape.of(4));
        Tensor unused = g.input("unused", Shape.of(4));
        g.relu(unused);
        Tensor y = g.sigmoid(g.relu(a));
        Graph graph = g.build(y);
        assertThat(graph.inputs()).extracting(Tensor::name).containsExactly("a");
        assertThat(graph.computeNodes()).hasSize(2);
        assertThat(graph.nodes().indexOf(graph.computeNodes().get(0)))
                .isLessThan(graph.nodes().indexOf(y));
        assertThatThrownBy(() -> g.relu(a)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void tensorsFromAnotherBuilderAreRejected() {
        GraphBuilder g1 = new GraphBuilder(), g2 = new GraphBuilder();
        Tensor a = g1.input("a", Shape.of(4));
        g2.input("b", Shape.of(4));
        assertThatThrownBy(() -> g2.relu(a)).hasMessageContaining("another graph builder");
    }

    @Test
    void castNeedsF32OnOneSide() {
        GraphBuilder g = new GraphBuilder();
        Tensor h = g.input("h", DType.F16, Shape.of(64));
        assertThat(g.cast(h, DType.F32).dtype()).isEqualTo(DType.F32);
        assertThatThrownBy(() -> g.cast(h, DType.BF16)).hasMessageContaining("F32");
    }
}
