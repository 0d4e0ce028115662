package dev.audioengine.conformance;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.HostTensor;
import java.util.List;
import java.util.Map;

/** Where a case's expected values come from: the float64 reference evaluator or another backend. */
public interface Reference extends AutoCloseable {

    /** A short description for reports ("float64 reference", "CPU"). */
    String describe();

    /**
     * The values of {@code graph}'s first output for {@code inputs}, row-major, dequantized.
     * Throws {@link CannotReferenceException} when this reference cannot compute the graph.
     */
    double[] evaluate(Graph graph, Map<String, HostTensor> inputs);

    /**
     * Runs a graph with persistent tensors several times, the state carried from run to run:
     * the states start as {@code states} (by name), run r takes {@code runs.get(r)}; returns
     * the first output's values after each run.
     */
    double[][] evaluateRuns(Graph graph, Map<String, HostTensor> states, List<Map<String, HostTensor>> runs);

    @Override
    default void close() {}

    /** The reference cannot compute a graph (the reference backend lacks the op). */
    final class CannotReferenceException extends RuntimeException {
        public CannotReferenceException(String message) {
            super(message);
        }
    }
}
