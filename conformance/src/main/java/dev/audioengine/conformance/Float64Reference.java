package dev.audioengine.conformance;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.reference.ReferenceEvaluator;
import dev.audioengine.reference.ReferenceState;
import java.util.List;
import java.util.Map;

/** Expected values from {@link ReferenceEvaluator}: naive loops in double precision (how the CPU backend is checked). */
public final class Float64Reference implements Reference {
    @Override
    public String describe() {
        return "float64 reference";
    }

    @Override
    public double[] evaluate(Graph graph, Map<String, HostTensor> inputs) {
        return ReferenceEvaluator.evaluate(graph, inputs, graph.outputs().getFirst());
    }

    @Override
    public double[][] evaluateRuns(Graph graph, Map<String, HostTensor> states, List<Map<String, HostTensor>> runs) {
        ReferenceState state = new ReferenceState();
        states.forEach(state::set);
        double[][] out = new double[runs.size()][];
        for (int r = 0; r < runs.size(); r++)
            out[r] = ReferenceEvaluator.evaluate(graph, runs.get(r), state)
                    .get(graph.outputs().getFirst());
        return out;
    }
}
