package dev.audioengine.api.exec;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Phase 2: the order of work and how long each tensor lives. Consecutive nodes of one backend
 * form a segment; a tensor needed on another backend than the one that computed it gets one
 * transfer, before the first segment there that reads it. Each computed storage root lives,
 * per backend that holds it, from the step that defines or receives it to its last reader
 * (graph outputs: to the end). Leaves (inputs, constants, persistent tensors) are listed per
 * backend that reads them and get no lifetime here: the memory plan places them.
 * <p>
 * An in-place write has no storage of its own (its storage root is the persistent tensor it
 * writes), so it never gets a lifetime and the memory planner never sees it: graph tensors are
 * never placed in persistent storage, and persistent storage is never reused for graph tensors.
 * Reads of a state version come before the write that replaces it because the graph builder
 * only lets nodes added after a write read the write's result, and every backend runs a
 * segment's nodes in graph order.
 */
record Schedule(
        List<Planned> steps,
        Map<Backend, Map<Tensor, Lifetime>> lifetimes,
        Map<Tensor, Backend> home,
        Map<Backend, Set<Tensor>> leavesRead,
        int end) {

    /** One step of the schedule before anything is compiled. */
    sealed interface Planned {}

    /** Consecutive nodes computed by one backend. */
    record Segment(Backend backend, List<Tensor> nodes) implements Planned {}

    /** A storage root copied from the backend that computed it to one that reads it. */
    record Transfer(Tensor root, Backend from, Backend to) implements Planned {}

    /** Inclusive range of node indices during which a storage root must keep its bytes. */
    static final class Lifetime {
        int first, last;

        Lifetime(int at) {
            first = last = at;
        }

        void extend(int at) {
            first = Math.min(first, at);
            last = Math.max(last, at);
        }
    }

    static Schedule of(Graph graph, BackendAssignment assignment) {
        List<Tensor> nodes = graph.nodes();
        int end = nodes.size();
        List<Planned> steps = new ArrayList<>();
        Map<Backend, Map<Tensor, Lifetime>> life = new IdentityHashMap<>();
        Map<Tensor, Backend> home = new IdentityHashMap<>();
        Map<Backend, Set<Tensor>> leaves = new LinkedHashMap<>();
        Map<Tensor, Set<Backend>> mirrored = new IdentityHashMap<>();
        Backend segBackend = null;
        List<Tensor> seg = null;
        for (int i = 0; i < nodes.size(); i++) {
            Tensor t = nodes.get(i);
            Backend b = assignment.backendOf().get(t);
            if (b == null) continue;
            boolean copied = false;
            for (Tensor in : t.inputs()) {
                Tensor root = in.storage();
                if (Graph.isLeaf(root)) {
                    leaves.computeIfAbsent(b, k -> new LinkedHashSet<>()).add(root);
                    continue;
                }
                Backend h = home.get(root);
                extend(life, h, root, i);
                if (h != b) {
                    if (mirrored.computeIfAbsent(root, r -> new LinkedHashSet<>())
                            .add(b)) {
                        if (seg != null) {
                            steps.add(new Segment(segBackend, seg));
                            seg = null;
                            segBackend = null;
                        }
                        steps.add(new Transfer(root, h, b));
                        copied = true;
                    }
                    extend(life, b, root, i);
                }
            }
            if (seg == null || segBackend != b || copied) {
                if (seg != null) steps.add(new Segment(segBackend, seg));
                seg = new ArrayList<>();
                segBackend = b;
            }
            seg.add(t);
            if (t.storage() == t) { // in-place writes live in their persistent tensor
                home.put(t, b);
                extend(life, b, t, i);
            }
        }
        if (seg != null) steps.add(new Segment(segBackend, seg));
        for (Tensor out : graph.outputs()) {
            Tensor root = out.storage();
            if (!Graph.isLeaf(root)) extend(life, home.get(root), root, end);
        }
        return new Schedule(List.copyOf(steps), life, home, leaves, end);
    }

    private static void extend(Map<Backend, Map<Tensor, Lifetime>> life, Backend b, Tensor root, int at) {
        Map<Tensor, Lifetime> m = life.computeIfAbsent(b, k -> new LinkedHashMap<>());
        Lifetime l = m.get(root);
        if (l == null) m.put(root, new Lifetime(at));
        else l.extend(at);
    }
}
