package dev.audioengine.conformance;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One conformance case: a graph with a single compute node (its inputs may pass through views,
 * so kernels meet strided inputs), how each input is drawn, and the error bound with its reason.
 * {@code reference} is the graph the expected values come from: the same graph, or another way
 * to compute the same thing (fused attention checked against matmul-softmax-matmul).
 * <p>
 * A state case has persistent tensors ({@code states}: how each starts) and runs {@code runs}
 * times with fresh inputs each run and the state carried from run to run; its graph may have
 * several compute nodes (reads of the state before and after a write), and it is checked on
 * its output after every run.
 *
 * @param op      the op's name as {@link Op#opName()} gives it (what {@code --op} filters on)
 * @param dtype   the dtype that matters for this op (weights, table, cast target, k/v), lower case
 * @param shape   a readable shape and parameter description
 */
public record ConformanceCase(
        String op,
        String dtype,
        String shape,
        Graph graph,
        Map<String, Values> inputs,
        Bound bound,
        Graph reference,
        Map<String, Values> states,
        int runs) {

    public ConformanceCase {
        inputs = Map.copyOf(inputs);
        states = Map.copyOf(states);
        if (runs < 1) throw new IllegalArgumentException("a case runs at least once: " + runs);
        if (graph.states().isEmpty() && graph.computeNodes().size() != 1) {
            throw new IllegalArgumentException(
                    "a conformance case has exactly one compute node: " + graph.computeNodes());
        }
        if (graph.states().isEmpty() && runs != 1)
            throw new IllegalArgumentException("only a case with state runs more than once");
        for (Tensor in : graph.inputs()) {
            if (!inputs.containsKey(in.name()))
                throw new IllegalArgumentException("no values for input '" + in.name() + "' of " + op + " " + shape);
        }
        for (Tensor s : graph.states()) {
            if (!states.containsKey(s.name()))
                throw new IllegalArgumentException(
                        "no initial values for state '" + s.name() + "' of " + op + " " + shape);
        }
    }

    /** A single-run case without state. */
    public ConformanceCase(
            String op,
            String dtype,
            String shape,
            Graph graph,
            Map<String, Values> inputs,
            Bound bound,
            Graph reference) {
        this(op, dtype, shape, graph, inputs, bound, reference, Map.of(), 1);
    }

    /** The node under test: the graph's first output (for a case without state, its one compute node). */
    public Tensor node() {
        return graph.outputs().getFirst();
    }

    /** True when the case has persistent tensors carried across its runs. */
    public boolean hasState() {
        return !graph.states().isEmpty();
    }

    /** True when the expected values come from a different graph than the one under test. */
    public boolean hasAlternativeReference() {
        return reference != graph;
    }

    /** Stable identifier: op, dtype and shape. */
    public String id() {
        return op + " " + dtype + " " + shape;
    }

    /**
     * Fresh inputs for one run. The case's own seed is mixed from the run seed and its id, so a
     * case filtered with {@code --op} sees the same values as in the full run with the same seed.
     */
    public Map<String, HostTensor> drawInputs(long runSeed) {
        return drawInputs(runSeed, 0);
    }

    /** Inputs for run {@code run} of a multi-run case (run 0 draws what {@link #drawInputs(long)} does). */
    public Map<String, HostTensor> drawInputs(long runSeed, int run) {
        SplittableRandom rnd = new SplittableRandom(
                runSeed ^ ((long) id().hashCode() * 0x9E3779B97F4A7C15L) ^ (run * 0xBF58476D1CE4E5B9L));
        return draw(graph.inputs(), inputs, rnd, run);
    }

    /** The persistent tensors' starting contents, by state name. */
    public Map<String, HostTensor> drawStates(long runSeed) {
        SplittableRandom rnd =
                new SplittableRandom(runSeed ^ ((long) id().hashCode() * 0x94D049BB133111EBL) ^ 0x5DEECE66DL);
        return draw(graph.states(), states, rnd, 0);
    }

    private static Map<String, HostTensor> draw(
            java.util.List<Tensor> leaves, Map<String, Values> how, SplittableRandom rnd, int run) {
        Map<String, HostTensor> out = new LinkedHashMap<>();
        try {
            for (Tensor in : leaves) {
                out.put(in.name(), how.get(in.name()).draw(in.dtype(), in.shape(), rnd, run));
            }
        } catch (RuntimeException e) {
            out.values().forEach(HostTensor::close);
            throw e;
        }
        return out;
    }

    @Override
    public String toString() {
        return id();
    }
}
