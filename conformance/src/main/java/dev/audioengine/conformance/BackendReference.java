package dev.audioengine.conformance;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.tensor.HostTensor;
import java.util.List;
import java.util.Map;

/** Expected values from another backend (the CPU, when a GPU backend is under test). */
public final class BackendReference implements Reference {
    private final Backend backend;
    private final boolean owned;

    private BackendReference(Backend backend, boolean owned) {
        this.backend = backend;
        this.owned = owned;
    }

    /** Uses {@code backend} without owning it: closing this reference leaves it open. */
    public static BackendReference borrowing(Backend backend) {
        return new BackendReference(backend, false);
    }

    /** Takes {@code backend} over: closing this reference closes it. */
    public static BackendReference owning(Backend backend) {
        return new BackendReference(backend, true);
    }

    @Override
    public void close() {
        if (owned) backend.close();
    }

    @Override
    public String describe() {
        return backend.registryName() + " (" + backend.device().name() + ")";
    }

    @Override
    public double[] evaluate(Graph graph, Map<String, HostTensor> inputs) {
        requireSupported(graph);
        try (GuardedExecution run = new GuardedExecution(backend, graph)) {
            run.run(inputs);
            List<String> guards = run.memoryViolations();
            if (!guards.isEmpty())
                throw new IllegalStateException(
                        "the reference backend " + backend.registryName() + " wrote outside its tensors: " + guards);
            return run.values(graph.outputs().getFirst());
        }
    }

    @Override
    public double[][] evaluateRuns(Graph graph, Map<String, HostTensor> states, List<Map<String, HostTensor>> runs) {
        requireSupported(graph);
        try (GuardedExecution run = new GuardedExecution(backend, graph)) {
            states.forEach(run::setState);
            double[][] out = new double[runs.size()][];
            for (int r = 0; r < runs.size(); r++) {
                run.run(runs.get(r));
                List<String> guards = run.memoryViolations();
                if (!guards.isEmpty())
                    throw new IllegalStateException("the reference backend " + backend.registryName()
                            + " wrote outside its tensors in run " + r + ": " + guards);
                out[r] = run.values(graph.outputs().getFirst());
            }
            return out;
        }
    }

    private void requireSupported(Graph graph) {
        List<Tensor> lacking = graph.computeNodes().stream()
                .filter(t -> !backend.supportsOp(t))
                .toList();
        if (!lacking.isEmpty()) {
            throw new CannotReferenceException(
                    "the reference backend " + backend.registryName() + " cannot compute " + lacking);
        }
    }
}
