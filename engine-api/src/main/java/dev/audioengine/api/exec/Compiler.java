package dev.audioengine.api.exec;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.spi.Backend;
import java.util.List;

/** Entry point from {@link dev.audioengine.api.AudioEngine} into planning; keeps the plan's constructor package-private. */
public final class Compiler {
    private Compiler() {}

    public static CompiledGraph compile(
            Graph graph, Backend primary, Backend cpuFallback, FallbackPolicy policy, WeightCache weights) {
        return new CompiledGraph(graph, primary, cpuFallback, policy, weights, List.of());
    }

    /** Compiles a graph with its state leaves bound to {@code states} by name. */
    public static CompiledGraph compile(
            Graph graph,
            Backend primary,
            Backend cpuFallback,
            FallbackPolicy policy,
            WeightCache weights,
            List<PersistentTensor> states) {
        return new CompiledGraph(graph, primary, cpuFallback, policy, weights, states);
    }
}
