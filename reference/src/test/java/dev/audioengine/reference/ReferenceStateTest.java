package dev.audioengine.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Persistent tensors in the reference: write_slice into a state, carried from run to run by a ReferenceState. */
class ReferenceStateTest {

    /** cache [2, 4] (rows), written along axis 1 (columns) at a run-time start, two runs carried. */
    @Test
    void writeSliceReplacesTheSliceAndTheNextRunSeesIt() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("c", Shape.of(2, 4));
        Tensor before = g.scale(s, 1f);
        Tensor w = g.writeSlice(s, g.input("src", Shape.of(2, 2)), 1, g.input("at", DType.I32, Shape.of(1)));
        Tensor view = g.slice(w, 1, 1, 3);
        Graph graph = g.build(before, view);
        ReferenceState state = new ReferenceState();
        try (HostTensor init = HostTensor.ofFloats(Shape.of(2, 4), 1, 2, 3, 4, 5, 6, 7, 8)) {
            state.set("c", init);
        }
        try (HostTensor src = HostTensor.ofFloats(Shape.of(2, 2), -1, -2, -3, -4);
                HostTensor at = HostTensor.ofInts(Shape.of(1), 1);
                HostTensor at2 = HostTensor.ofInts(Shape.of(1), 2)) {
            Map<Tensor, double[]> v = ReferenceEvaluator.evaluate(graph, Map.of("src", src, "at", at), state);
            assertThat(v.get(before))
                    .as("read before the write: the run's starting contents")
                    .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
            assertThat(v.get(w)).containsExactly(1, -1, -2, 4, 5, -3, -4, 8);
            assertThat(v.get(view))
                    .as("a view of the write shows the new contents")
                    .containsExactly(-1, -2, -3, -4);
            assertThat(state.values("c")).containsExactly(1, -1, -2, 4, 5, -3, -4, 8);
            v = ReferenceEvaluator.evaluate(graph, Map.of("src", src, "at", at2), state);
            assertThat(v.get(before))
                    .as("the second run starts where the first ended")
                    .containsExactly(1, -1, -2, 4, 5, -3, -4, 8);
            assertThat(state.values("c")).containsExactly(1, -1, -1, -2, 5, -3, -3, -4);
        }
    }

    @Test
    void aWriteOutsideTheCapacityIsAnError() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("c", Shape.of(5, 2));
        Graph graph =
                g.build(g.writeSlice(s, g.input("src", Shape.of(2, 2)), 0, g.input("at", DType.I32, Shape.of(1))));
        ReferenceState state = new ReferenceState().zeros("c", DType.F32, Shape.of(5, 2));
        try (HostTensor src = HostTensor.allocate(DType.F32, Shape.of(2, 2))) {
            for (int bad : new int[] {4, -1}) {
                try (HostTensor at = HostTensor.ofInts(Shape.of(1), bad)) {
                    assertThatThrownBy(() -> ReferenceEvaluator.evaluate(graph, Map.of("src", src, "at", at), state))
                            .isInstanceOf(IndexOutOfBoundsException.class)
                            .hasMessageContaining("outside the 5 positions");
                }
            }
            try (HostTensor at = HostTensor.ofInts(Shape.of(1), 3)) {
                ReferenceEvaluator.evaluate(
                        graph, Map.of("src", src, "at", at), state); // the last two positions: fits exactly
            }
        }
    }

    /** cache [3, 4] (3 batch elements of 4 positions), one start per element: 2, skipped (-1), 0. */
    @Test
    void writeSliceWithAStartPerBatchElementWritesEachAtItsOwnAndSkipsNegative() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("c", Shape.of(3, 4));
        Graph graph =
                g.build(g.writeSlice(s, g.input("src", Shape.of(3, 1)), 1, g.input("at", DType.I32, Shape.of(3))));
        ReferenceState state = new ReferenceState();
        try (HostTensor init = HostTensor.ofFloats(Shape.of(3, 4), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)) {
            state.set("c", init);
        }
        try (HostTensor src = HostTensor.ofFloats(Shape.of(3, 1), -1, -2, -3);
                HostTensor at = HostTensor.ofInts(Shape.of(3), 2, -1, 0);
                HostTensor past = HostTensor.ofInts(Shape.of(3), 0, 4, 0)) {
            ReferenceEvaluator.evaluate(graph, Map.of("src", src, "at", at), state);
            assertThat(state.values("c")).containsExactly(1, 2, -1, 4, 5, 6, 7, 8, -3, 10, 11, 12);
            assertThatThrownBy(() -> ReferenceEvaluator.evaluate(graph, Map.of("src", src, "at", past), state))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("at 4 (batch element 1) outside the 4 positions");
        }
    }

    @Test
    void storedValuesRoundToTheStatesFloat() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("h", Shape.of(1));
        Graph graph = g.build(g.overwrite(s, g.scale(s, 1f / 3)));
        ReferenceState state = new ReferenceState();
        try (HostTensor one = HostTensor.ofFloats(Shape.of(1), 1.1f)) {
            state.set("h", one);
        }
        ReferenceEvaluator.evaluate(graph, Map.of(), state);
        double exact = (double) 1.1f * (double) (1f / 3);
        assertThat((double) (float) exact).as("the product is not a float").isNotEqualTo(exact);
        assertThat(state.values("h")[0]).as("an F32 state holds floats").isEqualTo((double) (float) exact);
    }

    @Test
    void aGraphWithStateNeedsAReferenceState() {
        GraphBuilder g = new GraphBuilder();
        Graph graph = g.build(g.scale(g.state("h", Shape.of(2)), 2f));
        assertThatThrownBy(() -> ReferenceEvaluator.evaluate(graph, Map.of()))
                .hasMessageContaining("evaluate it with a ReferenceState");
        assertThatThrownBy(() -> ReferenceEvaluator.evaluate(graph, Map.of(), new ReferenceState()))
                .hasMessageContaining("needs state 'h'");
        ReferenceState wrong = new ReferenceState().zeros("h", DType.F32, Shape.of(3));
        assertThatThrownBy(() -> ReferenceEvaluator.evaluate(graph, Map.of(), wrong))
                .hasMessageContaining("must be F32 [2]");
    }
}
