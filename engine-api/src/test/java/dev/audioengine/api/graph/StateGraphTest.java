package dev.audioengine.api.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.Test;

/**
 * Persistent tensors in the graph: writes share the state's storage, are kept as side effects,
 * and the builder enforces the ordering rule (nothing added after a write reads what it replaced).
 */
class StateGraphTest {
    private static final Shape CACHE = Shape.of(1, 2, 8, 4);

    @Test
    void aWriteLivesInItsStateAndBecomesItsVersion() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("k", CACHE);
        Tensor w = g.writeSlice(s, g.input("src", Shape.of(1, 2, 3, 4)), 2, g.input("at", DType.I32, Shape.of(1)));
        assertThat(w.storage()).isSameAs(s);
        assertThat(w.isPersistent()).isTrue();
        assertThat(w.isView()).as("a write runs a kernel").isFalse();
        assertThat(w.stateVersion()).isSameAs(w);
        Tensor view = g.slice(w, 2, 0, 4);
        assertThat(view.stateVersion()).isSameAs(w);
        Graph graph = g.build(view);
        assertThat(graph.states()).containsExactly(s);
        assertThat(graph.computeNodes()).containsExactly(w);
        assertThat(graph.finalStateVersions()).containsEntry(s, w);
    }

    @Test
    void writesAreKeptWhenNoOutputReadsThem() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("h", Shape.of(3));
        Tensor x = g.input("x", Shape.of(3));
        Tensor y = g.tanh(g.add(s, x));
        g.overwrite(s, g.scale(y, 2f)); // a side effect: the next run sees it
        Graph graph = g.build(y);
        assertThat(graph.computeNodes())
                .extracting(t -> t.op().opName())
                .containsExactly("add", "tanh", "scale", "write_slice");
    }

    @Test
    void readsOfAReplacedVersionAreRejected() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("k", CACHE);
        Tensor oldView = g.slice(s, 2, 0, 2); // taken before the write: may be read only by nodes added before it
        Tensor before = g.scale(oldView, 1f); // fine: added before the write
        Tensor w = g.overwrite(s, g.input("x", CACHE));
        assertThatThrownBy(() -> g.scale(s, 1f))
                .hasMessageContaining("state 'k' was written by")
                .hasMessageContaining("read the write's result");
        assertThatThrownBy(() -> g.scale(oldView, 1f)).hasMessageContaining("state 'k'");
        assertThatThrownBy(() -> g.overwrite(s, g.input("y", CACHE)))
                .as("a second write must chain on the first")
                .hasMessageContaining("state 'k'");
        assertThatThrownBy(() -> g.build(oldView))
                .as("an output shows the final contents")
                .hasMessageContaining("state 'k'");
        Tensor w2 = g.overwrite(w, g.input("z", CACHE));
        assertThat(g.build(g.add(g.slice(w2, 2, 0, 2), before)).nodes()).contains(w, w2);
    }

    @Test
    void writesCheckTheirOperands() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("k", CACHE);
        Tensor at = g.input("at", DType.I32, Shape.of(1));
        assertThatThrownBy(() -> g.writeSlice(s, g.input("long", Shape.of(1, 2, 9, 4)), 2, at))
                .hasMessageContaining("no longer than it");
        assertThatThrownBy(() -> g.writeSlice(s, g.input("wide", Shape.of(1, 2, 1, 5)), 2, at))
                .hasMessageContaining("axis 2");
        assertThatThrownBy(() -> g.writeSlice(s, g.input("ok", Shape.of(1, 2, 1, 4)), 2, g.input("f", Shape.of(1))))
                .hasMessageContaining("I32 [1]");
        assertThatThrownBy(() -> g.writeSlice(g.slice(s, 2, 0, 4), g.input("v", Shape.of(1, 2, 1, 4)), 2, at))
                .hasMessageContaining("whole persistent tensor");
        assertThatThrownBy(() -> g.overwrite(g.input("notState", CACHE), g.input("v2", CACHE)))
                .hasMessageContaining("whole persistent tensor");
        assertThatThrownBy(() -> g.writeSlice(s, g.slice(s, 2, 0, 1), 2, at)).hasMessageContaining("copy it first");
        assertThatThrownBy(() -> g.state("k", CACHE)).hasMessageContaining("already has a state named 'k'");
        assertThatThrownBy(() -> g.state("q", DType.Q8_0, Shape.of(32))).hasMessageContaining("plain dtypes");
    }

    @Test
    void keyMaskShapeAndLength() {
        GraphBuilder g = new GraphBuilder();
        Tensor len = g.input("len", DType.I32, Shape.of(1));
        assertThat(g.keyMask(len, 3, 16, true).shape()).isEqualTo(Shape.of(3, 16));
        assertThatThrownBy(() -> g.keyMask(g.input("f", Shape.of(1)), 1, 16, false))
                .hasMessageContaining("I32 [1]");
    }

    @Test
    void batchedStepShapes() {
        GraphBuilder g = new GraphBuilder();
        Tensor lengths = g.input("lengths", DType.I32, Shape.of(4));
        Tensor mask = g.keyMask(lengths, 1, 16, false);
        assertThat(mask.shape()).isEqualTo(Shape.of(4, 1, 1, 16));
        Tensor k = g.state("k", Shape.of(4, 2, 16, 8)), v = g.state("v", Shape.of(4, 2, 16, 8));
        Tensor kw = g.writeSlice(k, g.input("k_new", Shape.of(4, 2, 1, 8)), 2, lengths);
        assertThat(kw.shape()).isEqualTo(k.shape());
        Tensor q = g.input("q", Shape.of(4, 2, 1, 8));
        assertThat(g.attention(q, kw, v, mask, 1f, false).shape()).isEqualTo(q.shape());
        // a mask per batch element must match the batch; per-batch starts need a later axis and B starts
        Tensor other = g.keyMask(g.input("three", DType.I32, Shape.of(3)), 1, 16, false);
        assertThatThrownBy(() -> g.attention(q, kw, v, other, 1f, false)).hasMessageContaining("[B, 1, Tq, Tk]");
        Tensor rows = g.state("rows", Shape.of(4, 8));
        assertThatThrownBy(() -> g.writeSlice(rows, g.input("row", Shape.of(1, 8)), 0, lengths))
                .hasMessageContaining("one start per batch element");
        Tensor s3 = g.state("s3", Shape.of(3, 2, 16, 8));
        assertThatThrownBy(() -> g.writeSlice(s3, g.input("x3", Shape.of(3, 2, 1, 8)), 2, lengths))
                .hasMessageContaining("I32 [3]");
    }
}
