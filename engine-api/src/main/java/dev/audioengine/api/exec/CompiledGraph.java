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
 * fallback policy allows): each node assigned a backend, every tensor placed in one arena per
 * backend by {@link MemoryPlanner}, each run of same-backend nodes compiled once, and the copies
 * between backends made explicit. {@link #run} replays that plan. One run at a time.
 */
public final class CompiledGraph implements AutoCloseable {

    private record Slot(DeviceBuffer buffer, long offset) {}

    private sealed interface Step {}

    private record Exec(Backend backend, List<Tensor> nodes, Executable[] compiled) implements Step {}

    private record Copy(Tensor root, Backend from, Backend to, MemorySegment staging) implements Step {}

    private final Graph graph;
    private final Backend primary;
    private final List<Step> steps = new ArrayList<>();
    private final Map<Backend, Map<Tensor, Slot>> slots = new IdentityHashMap<>();
    private final Map<Tensor, Backend> home = new IdentityHashMap<>();
    private final List<DeviceBuffer> arenas = new ArrayList<>();
    private final Arena staging = Arena.ofShared();
    private final RunSummary summary;
    private long lastRunNanos;
    private boolean closed;

    CompiledGraph(Graph graph, Backend primary, Backend cpuFallback, FallbackPolicy policy, WeightCache weights) {
        this.graph = graph;
        this.primary = primary;
        try {
            List<Tensor> nodes = graph.nodes();
            int end = nodes.size();
            // 1. assign each compute node a backend
            Map<Tensor, Backend> assigned = new IdentityHashMap<>();
            List<String> fallback = new ArrayList<>();
            List<String> unsupported = new ArrayList<>();
            for (Tensor t : graph.computeNodes()) {
                if (primary.supportsOp(t)) {
                    assigned.put(t, primary);
                } else if (policy == FallbackPolicy.CPU && cpuFallback != null && cpuFallback.supportsOp(t)) {
                    assigned.put(t, cpuFallback);
                    fallback.add(t.toString());
                } else {
                    unsupported.add(t.toString());
                }
            }
            if (!unsupported.isEmpty()) {
                throw new UnsupportedOpException(primary.registryName() + " cannot compute " + unsupported.size() + " node(s)"
                        + (policy == FallbackPolicy.FAIL ? " and CPU fallback is off (fallback=cpu turns it on)" : "")
                        + ": " + unsupported);
            }

            // 2. where each root lives, which backends read it and until when
            Map<Backend, Map<Tensor, int[]>> life = new IdentityHashMap<>(); // root -> {first, last}
            Map<Tensor, Map<Backend, Integer>> mirroredAt = new IdentityHashMap<>();
            List<Object[]> pendingSteps = new ArrayList<>(); // {Backend, List<Tensor>} or {Copy data}
            Backend segBackend = null;
            List<Tensor> seg = null;
            for (int i = 0; i < nodes.size(); i++) {
                Tensor t = nodes.get(i);
                Backend b = assigned.get(t);
                if (b == null) continue;
                boolean needsCopy = false;
                for (Tensor in : t.inputs()) {
                    Tensor root = in.storage();
                    if (isLeaf(root)) {
                        slotsFor(b).putIfAbsent(root, null); // placed below
                        continue;
                    }
                    Backend h = home.get(root);
                    lifetime(life, h, root, i, false);
                    if (h != b) {
                        Map<Backend, Integer> m = mirroredAt.computeIfAbsent(root, r -> new IdentityHashMap<>());
                        if (!m.containsKey(b)) {
                            m.put(b, i);
                            if (seg != null) { pendingSteps.add(new Object[] {segBackend, seg}); seg = null; segBackend = null; }
                            pendingSteps.add(new Object[] {root, h, b});
                            needsCopy = true;
                        }
                        lifetime(life, b, root, i, false);
                    }
                }
                if (seg == null || segBackend != b || needsCopy) {
                    if (seg != null) pendingSteps.add(new Object[] {segBackend, seg});
                    seg = new ArrayList<>();
                    segBackend = b;
                }
                seg.add(t);
                home.put(t, b);
                lifetime(life, b, t, i, true);
            }
            if (seg != null) pendingSteps.add(new Object[] {segBackend, seg});
            for (Tensor out : graph.outputs()) {
                Tensor root = out.storage();
                if (!isLeaf(root)) lifetime(life, home.get(root), root, end, false);
            }

            // 3. memory plan per backend: one arena each; inputs live for the whole run
            Map<Backend, Integer> nodeCounts = new LinkedHashMap<>();
            for (Backend b : assigned.values()) nodeCounts.merge(b, 1, Integer::sum);
            Map<String, Long> arenaBytes = new LinkedHashMap<>();
            List<Backend> backends = new ArrayList<>(nodeCounts.keySet());
            for (Backend b : slots.keySet()) if (!backends.contains(b)) backends.add(b);
            for (Backend b : backends) {
                Map<Tensor, int[]> l = life.computeIfAbsent(b, k -> new LinkedHashMap<>());
                for (Tensor leaf : slotsFor(b).keySet()) {
                    if (leaf.op() instanceof Op.Input) l.put(leaf, new int[] {0, end});
                }
                List<Tensor> keys = new ArrayList<>(l.keySet());
                List<MemoryPlanner.Request> reqs = new ArrayList<>();
                for (int k = 0; k < keys.size(); k++) {
                    Tensor r = keys.get(k);
                    reqs.add(new MemoryPlanner.Request(k, r.storageBytes(), l.get(r)[0], l.get(r)[1]));
                }
                MemoryPlanner.Result plan = MemoryPlanner.plan(reqs);
                DeviceBuffer arena = b.allocate(Math.max(plan.arenaBytes(), MemoryPlanner.ALIGN));
                arenas.add(arena);
                arenaBytes.merge(b.registryName(), plan.arenaBytes(), Long::sum);
                for (MemoryPlanner.Placement p : plan.placements()) slotsFor(b).put(keys.get(p.key()), new Slot(arena, p.offset()));
                for (Map.Entry<Tensor, Slot> e : slotsFor(b).entrySet()) {
                    if (e.getValue() == null && e.getKey().op() instanceof Op.Constant c) {
                        e.setValue(new Slot(weights.get(b, c.value()), 0));
                    }
                }
            }

            // 4. compile segments against the placements; make copy staging buffers
            int copies = 0;
            long copyBytes = 0;
            for (Object[] s : pendingSteps) {
                if (s[0] instanceof Backend b) {
                    @SuppressWarnings("unchecked") List<Tensor> segNodes = (List<Tensor>) s[1];
                    steps.add(new Exec(b, segNodes, new Executable[] {b.compile(segNodes, placementFor(b))}));
                } else {
                    Tensor root = (Tensor) s[0];
                    steps.add(new Copy(root, (Backend) s[1], (Backend) s[2], staging.allocate(Math.max(1, root.storageBytes()), 64)));
                    copies++;
                    copyBytes += root.storageBytes();
                }
            }
            Map<String, Integer> perName = new LinkedHashMap<>();
            nodeCounts.forEach((b, n) -> perName.merge(b.registryName(), n, Integer::sum));
            summary = new RunSummary(primary.registryName(), primary.detail(), perName, List.copyOf(fallback), copies, copyBytes, arenaBytes);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static boolean isLeaf(Tensor root) {
        return root.op() instanceof Op.Input || root.op() instanceof Op.Constant;
    }

    private Map<Tensor, Slot> slotsFor(Backend b) { return slots.computeIfAbsent(b, k -> new LinkedHashMap<>()); }

    private static void lifetime(Map<Backend, Map<Tensor, int[]>> life, Backend b, Tensor root, int step, boolean def) {
        int[] r = life.computeIfAbsent(b, k -> new LinkedHashMap<>()).computeIfAbsent(root, k -> new int[] {step, step});
        if (def) r[0] = Math.min(r[0], step);
        r[1] = Math.max(r[1], step);
        r[0] = Math.min(r[0], step);
    }

    private TensorPlacement placementFor(Backend b) {
        Map<Tensor, Slot> s = slotsFor(b);
        return new TensorPlacement() {
            @Override public DeviceBuffer buffer(Tensor t) { return slot(t).buffer(); }

            @Override public long byteOffset(Tensor t) { return slot(t).offset() + t.dtype().bytesFor(t.offset()); }

            private Slot slot(Tensor t) {
                Slot slot = s.get(t.storage());
                if (slot == null) throw new IllegalStateException("no placement for " + t + " on " + b.registryName());
                return slot;
            }
        };
    }

    public Graph graph() { return graph; }

    public RunSummary summary() { return summary; }

    /** Wall time of the last {@link #run}, in nanoseconds. */
    public long lastRunNanos() { return lastRunNanos; }

    /** Runs with inputs by name; returns the outputs in the order the graph was built with. */
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
     */
    public synchronized void runInto(Map<String, HostTensor> inputs, List<HostTensor> outputs) {
        if (closed) throw new IllegalStateException("compiled graph is closed");
        long t0 = System.nanoTime();
        List<Tensor> wanted = graph.outputs();
        if (outputs.size() != wanted.size()) {
            throw new IllegalArgumentException("graph has " + wanted.size() + " output(s), " + outputs.size() + " tensor(s) given");
        }
        for (int i = 0; i < wanted.size(); i++) {
            Tensor o = wanted.get(i);
            HostTensor d = outputs.get(i);
            if (d.dtype() != o.dtype() || !d.shape().equals(o.shape())) {
                throw new IllegalArgumentException("output " + i + " must be " + o.dtype() + " " + o.shape() + ", got " + d.dtype() + " " + d.shape());
            }
        }
        for (String name : inputs.keySet()) graph.input(name); // unknown names fail with the list
        for (Tensor in : graph.inputs()) {
            String name = ((Op.Input) in.op()).name();
            HostTensor v = inputs.get(name);
            if (v == null) throw new IllegalArgumentException("input '" + name + "' missing; graph inputs: " + graph.inputs().stream().map(Tensor::name).toList());
            if (v.dtype() != in.dtype() || !v.shape().equals(in.shape())) {
                throw new IllegalArgumentException("input '" + name + "' must be " + in.dtype() + " " + in.shape() + ", got " + v.dtype() + " " + v.shape());
            }
            for (Map.Entry<Backend, Map<Tensor, Slot>> e : slots.entrySet()) {
                Slot s = e.getValue().get(in);
                if (s != null) e.getKey().upload(s.buffer(), s.offset(), v.data());
            }
        }
        for (Step step : steps) {
            switch (step) {
                case Exec x -> x.compiled()[0].run();
                case Copy c -> {
                    Slot from = slots.get(c.from()).get(c.root());
                    Slot to = slots.get(c.to()).get(c.root());
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
        if (root.op() instanceof Op.Input in) { HostStridedCopy.gather(inputs.get(in.name()), o, dst); return; }
        if (root.op() instanceof Op.Constant c) { HostStridedCopy.gather(c.value(), o, dst); return; }
        Backend b = home.get(root);
        Slot s = slots.get(b).get(root);
        if (o == root) {
            b.download(s.buffer(), s.offset(), dst.data());
            return;
        }
        try (HostTensor whole = HostTensor.allocate(root.dtype(), root.shape())) {
            b.download(s.buffer(), s.offset(), whole.data());
            HostStridedCopy.gather(whole, o, dst);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (Step s : steps) if (s instanceof Exec x && x.compiled()[0] != null) x.compiled()[0].close();
        for (DeviceBuffer b : arenas) b.close();
        staging.close();
    }

    /** The outputs of one run; they own host memory, so close them (or each tensor) when done. */
    public record Outputs(List<HostTensor> tensors, Map<String, Integer> byName) implements AutoCloseable {
        public HostTensor get(int i) { return tensors.get(i); }

        public HostTensor get(String name) {
            Integer i = byName.get(name);
            if (i == null) throw new IllegalArgumentException("no output named '" + name + "'; named outputs: " + byName.keySet());
            return tensors.get(i);
        }

        public int size() { return tensors.size(); }

        @Override public void close() { tensors.forEach(HostTensor::close); }
    }
}
