package dev.audioengine.conformance;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.HostTensor;

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

    @Override
    default void close() {}

    /** The reference cannot compute a graph (the reference backend lacks the op). */
    final class CannotReferenceException extends RuntimeException {
        public CannotReferenceException(String message) { super(message); }
    }
}
