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
 *
 * @param op      the op's name as {@link Op#opName()} gives it (what {@code --op} filters on)
 * @param dtype   the dtype that matters for this op (weights, table, cast target, k/v), lower case
 * @param shape   a readable shape and parameter description
 */
public record ConformanceCase(String op, String dtype, String shape, Graph graph, Map<String, Values> inputs,
                              Bound bound, Graph reference) {

    public ConformanceCase {
        inputs = Map.copyOf(inputs);
        if (graph.computeNodes().size() != 1) {
            throw new IllegalArgumentException("a conformance case has exactly one compute node: " + graph.computeNodes());
        }
        for (Tensor in : graph.inputs()) {
            if (!inputs.containsKey(in.name())) throw new IllegalArgumentException("no values for input '" + in.name() + "' of " + op + " " + shape);
        }
    }

    /** The node under test (the graph's one output). */
    public Tensor node() { return graph.computeNodes().getFirst(); }

    /** True when the expected values come from a different graph than the one under test. */
    public boolean hasAlternativeReference() { return reference != graph; }

    /** Stable identifier: op, dtype and shape. */
    public String id() { return op + " " + dtype + " " + shape; }

    /**
     * Fresh inputs for one run. The case's own seed is mixed from the run seed and its id, so a
     * case filtered with {@code --op} sees the same values as in the full run with the same seed.
     */
    public Map<String, HostTensor> drawInputs(long runSeed) {
        SplittableRandom rnd = new SplittableRandom(runSeed ^ ((long) id().hashCode() * 0x9E3779B97F4A7C15L));
        Map<String, HostTensor> out = new LinkedHashMap<>();
        try {
            for (Tensor in : graph.inputs()) {
                out.put(in.name(), inputs.get(in.name()).draw(in.dtype(), in.shape(), rnd));
            }
        } catch (RuntimeException e) {
            out.values().forEach(HostTensor::close);
            throw e;
        }
        return out;
    }

    @Override
    public String toString() { return id(); }
}
