package dev.audioengine.api.exec;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A graph planned for a primary backend (plus the CPU for nodes the primary lacks, when the
 * fallback policy allows), in four phases: {@link BackendAssignment} (each node's backend),
 * {@link Schedule} (segments, transfers between backends, lifetimes), {@link MemoryPlan} (one
 * arena per backend, weights and persistent tensors bound) and {@link #compileSteps} (each
 * segment compiled once, each transfer given its staging buffer). {@link #run} replays the
 * steps. One run at a time.
 */
public final class CompiledGraph implements AutoCloseable {

    /** Phase 4's output: what a run replays. */
    private sealed interface Step {}

    private record Exec(Backend backend, List<Tensor> nodes, Executable compiled) implements Step {}

    private record Copy(Tensor root, Backend from, Backend to, MemorySegment staging) implements Step {}

    private final Graph graph;
    private final Backend primary;
    private final Map<Tensor, PersistentTensor> states;
    private final List<DeviceBuffer> arenas = new ArrayList<>();
    private final List<Step> steps = new ArrayList<>();
    private final Arena staging = Arena.ofShared();
    private final MemoryPlan memory;
    private final Schedule schedule;
    private final RunSummary summary;
    private long lastRunNanos;
    private boolean closed;

    CompiledGraph(
            Graph graph,
            Backend primary,
            Backend cpuFallback,
            FallbackPolicy policy,
            WeightCache weights,
            List<PersistentTensor> persistent) {
        this.graph = graph;
        this.primary = primary;
        try {
            this.states = bindStates(graph, primary, persistent);
            BackendAssignment assignment = BackendAssignment.of(graph, primary, cpuFallback, policy);
            this.schedule = Schedule.of(graph, assignment);
            this.memory = MemoryPlan.allocate(schedule, assignment, weights, states, arenas);
            int copies = 0;
            long copyBytes = 0;
            for (Schedule.Planned p : schedule.steps()) {
                if (p instanceof Schedule.Transfer t) {
                    copies++;
                    copyBytes += t.root().storageBytes();
                }
            }
            compileSteps();
            Map<String, Integer> perName = new LinkedHashMap<>();
            assignment.nodeCounts().forEach((b, n) -> perName.merge(b.registryName(), n, Integer::sum));
            summary = new RunSummary(
                    primary.registryName(),
                    primary.detail(),
                    perName,
                    assignment.fallback(),
                    copies,
                    copyBytes,
                    memory.arenaBytes());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Matches the graph's state leaves with the caller's persistent tensors by name: each needs
     * exactly one of the same dtype and shape, allocated on the primary backend, and every
     * tensor given must be used.
     */
    private static Map<Tensor, PersistentTensor> bindStates(
            Graph graph, Backend primary, List<PersistentTensor> given) {
        Map<String, PersistentTensor> byName = new LinkedHashMap<>();
        for (PersistentTensor p : given) {
            p.ensureOpen();
            if (byName.put(p.name(), p) != null)
                throw new IllegalArgumentException("two persistent tensors are named '" + p.name() + "'");
        }
        Map<Tensor, PersistentTensor> bound = new IdentityHashMap<>();
        List<String> names = graph.states().stream().map(Tensor::name).toList();
        for (Tensor leaf : graph.states()) {
            String name = ((Op.State) leaf.op()).name();
            PersistentTensor p = byName.remove(name);
            if (p == null) {
                throw new IllegalArgumentException("graph state '" + name + "' (" + leaf.dtype() + " " + leaf.shape()
                        + ") is not bound: pass a PersistentTensor of that name to compile (graph states: " + names
                        + ")");
            }
            if (p.dtype() != leaf.dtype() || !p.shape().equals(leaf.shape())) {
                throw new IllegalArgumentException(
                        "graph state '" + name + "' is " + leaf.dtype() + " " + leaf.shape() + ", bound to " + p);
            }
            if (p.backend() != primary) {
                throw new IllegalArgumentException(p + " belongs to another backend than this engine's "
                        + primary.registryName() + "; allocate it with this engine's state(...)");
            }
            bound.put(leaf, p);
        }
        if (!byName.isEmpty()) {
            throw new IllegalArgumentException("persistent tensor(s) " + byName.keySet()
                    + " given, but the graph has no such state; graph states: " + names);
        }
        return bound;
    }

    /** Phase 4: compiles each segment against its backend's placements and gives each transfer a staging buffer. */
    private void compileSteps() {
        for (Schedule.Planned p : schedule.steps()) {
            switch (p) {
                case Schedule.Segment s ->
                    steps.add(new Exec(
                            s.backend(), s.nodes(), s.backend().compile(s.nodes(), placementFor(s.backend()))));
                case Schedule.Transfer t ->
                    steps.add(new Copy(
                            t.root(),
                            t.from(),
                            t.to(),
                            staging.allocate(Math.max(1, t.root().storageBytes()), 64)));
            }
        }
    }

    private TensorPlacement placementFor(Backend b) {
        return new TensorPlacement() {
            @Override
            public DeviceBuffer buffer(Tensor t) {
                return slot(t).buffer();
            }

            @Override
            public long byteOffset(Tensor t) {
                return slot(t).offset() + t.dtype().bytesFor(t.offset());
            }

            private MemoryPlan.Slot slot(Tensor t) {
                MemoryPlan.Slot slot = memory.slot(b, t.storage());
                if (slot == null) throw new IllegalStateException("no placement for " + t + " on " + b.registryName());
                return slot;
            }
        };
    }

    /**
     * The graph this was compiled from.
     *
     * @return the graph, whose inputs name what {@link #run} needs
     */
    public Graph graph() {
        return graph;
    }

    /**
     * What runs where: nodes per backend, CPU fallbacks and the copies they cost, arena sizes.
     *
     * @return the summary, fixed at compile time
     */
    public RunSummary summary() {
        return summary;
    }

    /**
     * Wall time of the last {@link #run}, in nanoseconds.
     *
     * @return the time from the input checks to the last output downloaded, or 0 before the first run
     */
    public long lastRunNanos() {
        return lastRunNanos;
    }

    /**
     * Runs with inputs by name; returns the outputs in the order the graph was built with.
     *
     * @param inputs one tensor per graph input, keyed by its name, of exactly its dtype and shape; read during the
     *     call only, still owned by the caller
     * @return new host tensors that the caller closes (or closes all at once through the result)
     * @throws IllegalArgumentException if an input is missing, unknown, or of the wrong dtype or shape
     * @throws IllegalStateException if this graph or a persistent tensor it uses is closed
     */
    public synchronized Outputs run(Map<String, HostTensor> inputs) {
        List<HostTensor> outs = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        try {
            for (Tensor o : graph.outputs()) {
                outs.add(HostTensor.allocate(o.dtype(), o.shape()));
                if (o.name() != null) names.put(o.name(), outs.size() - 1);
            }
            runInto(inputs, outs);
        } catch (RuntimeException e) {
            outs.forEach(HostTensor::close);
            throw e;
        }
        return new Outputs(outs, names);
    }

    /**
     * Runs and writes the outputs into tensors the caller owns (same order, dtypes and shapes as
     * the graph's outputs): the steady-state path of streaming models, which allocates nothing.
     *
     * @param inputs one tensor per graph input, keyed by its name, of exactly its dtype and shape
     * @param outputs one tensor per graph output, in build order, of exactly its dtype and shape; overwritten
     * @throws IllegalArgumentException if an input or output tensor is missing, unknown, or of the wrong dtype or
     *     shape
     * @throws IllegalStateException if this graph or a persistent tensor it uses is closed
     */
    public synchronized void runInto(Map<String, HostTensor> inputs, List<HostTensor> outputs) {
        if (closed) throw new IllegalStateException("compiled graph is closed");
        for (PersistentTensor p : states.values()) p.ensureOpen();
        long t0 = System.nanoTime();
        List<Tensor> wanted = graph.outputs();
        if (outputs.size() != wanted.size()) {
            throw new IllegalArgumentException(
                    "graph has " + wanted.size() + " output(s), " + outputs.size() + " tensor(s) given");
        }
        for (int i = 0; i < wanted.size(); i++) {
            Tensor o = wanted.get(i);
            HostTensor d = outputs.get(i);
            if (d.dtype() != o.dtype() || !d.shape().equals(o.shape())) {
                throw new IllegalArgumentException("output " + i + " must be " + o.dtype() + " " + o.shape() + ", got "
                        + d.dtype() + " " + d.shape());
            }
        }
        for (String name : inputs.keySet()) graph.input(name); // unknown names fail with the list
        for (Tensor in : graph.inputs()) {
            String name = ((Op.Input) in.op()).name();
            HostTensor v = inputs.get(name);
            if (v == null)
                throw new IllegalArgumentException("input '" + name + "' missing; graph inputs: "
                        + graph.inputs().stream().map(Tensor::name).toList());
            if (v.dtype() != in.dtype() || !v.shape().equals(in.shape())) {
                throw new IllegalArgumentException("input '" + name + "' must be " + in.dtype() + " " + in.shape()
                        + ", got " + v.dtype() + " " + v.shape());
            }
            for (Map.Entry<Backend, Map<Tensor, MemoryPlan.Slot>> e :
                    memory.slots().entrySet()) {
                MemoryPlan.Slot s = e.getValue().get(in);
                if (s != null) e.getKey().upload(s.buffer(), s.offset(), v.data());
            }
        }
        for (Step step : steps) {
            switch (step) {
                case Exec x -> x.compiled().run();
                case Copy c -> {
                    MemoryPlan.Slot from = memory.slot(c.from(), c.root());
                    MemoryPlan.Slot to = memory.slot(c.to(), c.root());
                    c.from().download(from.buffer(), from.offset(), c.staging());
                    c.to().upload(to.buffer(), to.offset(), c.staging());
                }
            }
        }
        for (int i = 0; i < wanted.size(); i++) fetchInto(wanted.get(i), outputs.get(i), inputs);
        lastRunNanos = System.nanoTime() - t0;
    }

    private void fetchInto(Tensor o, HostTensor dst, Map<String, HostTensor> inputs) {
        Tensor root = o.storage();
        if (root.op() instanceof Op.Input in) {
            HostStridedCopy.gather(inputs.get(in.name()), o, dst);
            return;
        }
        if (root.op() instanceof Op.Constant c) {
            HostStridedCopy.gather(c.value(), o, dst);
            return;
        }
        Backend b;
        MemoryPlan.Slot s;
        if (root.op() instanceof Op.State) {
            PersistentTensor p = states.get(root);
            b = p.backend();
            s = new MemoryPlan.Slot(p.buffer(), 0);
        } else {
            b = schedule.home().get(root);
            s = memory.slot(b, root);
        }
        if (o == root) {
            b.download(s.buffer(), s.offset(), dst.data());
            return;
        }
        try (HostTensor whole = HostTensor.allocate(root.dtype(), root.shape())) {
            b.download(s.buffer(), s.offset(), whole.data());
            HostStridedCopy.gather(whole, o, dst);
        }
    }

    /**
     * Frees the compiled steps and the activation arenas (idempotent). Weights stay in the engine's cache and
     * persistent tensors stay open: both belong to others.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (Step s : steps) if (s instanceof Exec x) x.compiled().close();
        for (DeviceBuffer b : arenas) b.close(); // persistent tensors belong to the caller: left open
        staging.close();
    }

    /**
     * The outputs of one run; they own host memory, so close them (or each tensor) when done.
     *
     * @param tensors the outputs in the order given to {@code GraphBuilder.build}
     * @param byName the index in {@code tensors} of each output that has a name ({@link Tensor#named})
     */
    public record Outputs(List<HostTensor> tensors, Map<String, Integer> byName) implements AutoCloseable {
        /**
         * One output by position.
         *
         * @param i its position among the graph's outputs
         * @return the tensor, still owned by this result (closing the result closes it)
         * @throws IndexOutOfBoundsException if there is no output {@code i}
         */
        public HostTensor get(int i) {
            return tensors.get(i);
        }

        /**
         * One output by the name its node was given.
         *
         * @param name the output node's {@link Tensor#name()}
         * @return the tensor, still owned by this result
         * @throws IllegalArgumentException if no output has that name; the message lists the named outputs
         */
        public HostTensor get(String name) {
            Integer i = byName.get(name);
            if (i == null)
                throw new IllegalArgumentException("no output named '" + name + "'; named outputs: " + byName.keySet());
            return tensors.get(i);
        }

        /**
         * The number of outputs.
         *
         * @return as many as the graph was built with
         */
        public int size() {
            return tensors.size();
        }

        /** Closes every output tensor, freeing their host memory. */
        @Override
        public void close() {
            tensors.forEach(HostTensor::close);
        }
    }
}
