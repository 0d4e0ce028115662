package dev.audioengine.api.exec;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.spi.Backend;
import java.util.List;

/** Entry point from {@link dev.audioengine.api.AudioEngine} into planning; keeps the plan's constructor package-private. */
public final class Compiler {
    private Compiler() {}

    /**
     * Compiles a graph without persistent state; what {@link dev.audioengine.api.AudioEngine#compile(Graph)} calls,
     * which is the method to use.
     *
     * @param graph the graph; it must have no state leaves
     * @param primary the backend nodes run on when it supports them
     * @param cpuFallback the CPU backend for the nodes the primary cannot run, or null (no fallback, or the primary
     *     is the CPU)
     * @param policy whether unsupported nodes go to {@code cpuFallback} or fail the compile
     * @param weights the engine's upload cache, so weights shared between graphs are uploaded once
     * @return the compiled graph; the caller closes it
     * @throws UnsupportedOpException if a node cannot run on the primary and fallback is off or unavailable
     * @throws IllegalArgumentException if the graph has state leaves (use the other overload)
     * @throws dev.audioengine.api.spi.OutOfDeviceMemoryException if the plan's memory does not fit on a device
     */
    public static CompiledGraph compile(
            Graph graph, Backend primary, Backend cpuFallback, FallbackPolicy policy, WeightCache weights) {
        return new CompiledGraph(graph, primary, cpuFallback, policy, weights, List.of());
    }

    /**
     * Compiles a graph with its state leaves bound to {@code states} by name.
     *
     * @param graph the graph, with one state leaf per tensor in {@code states}
     * @param primary the backend nodes run on when it supports them; the states must live on it
     * @param cpuFallback the CPU backend for unsupported nodes, or null
     * @param policy whether unsupported nodes go to {@code cpuFallback} or fail the compile
     * @param weights the engine's upload cache
     * @param states one open persistent tensor per state leaf, of its name, dtype and shape; not owned by the result
     * @return the compiled graph; the caller closes it (the states stay open)
     * @throws UnsupportedOpException if a node cannot run on the primary and fallback is off or unavailable
     * @throws IllegalArgumentException if a state is unbound, mismatched, on another backend, given twice or unused
     * @throws dev.audioengine.api.spi.OutOfDeviceMemoryException if the plan's memory does not fit on a device
     */
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
