package dev.audioengine.api.exec;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase 1 of compiling a graph: which backend computes each compute node. The primary when
 * its supportsOp says yes, else the CPU when the policy allows it, else the graph cannot be
 * compiled. Nodes that read or write a persistent tensor must run where that tensor lives
 * (the primary): moving state to the host and back each run is what persistent tensors exist
 * to avoid.
 *
 * @param backendOf  each compute node's backend
 * @param fallback   the nodes that fell back to the CPU, as run summaries show them
 * @param nodeCounts compute nodes per backend, in order of first use
 */
record BackendAssignment(Map<Tensor, Backend> backendOf, List<String> fallback, Map<Backend, Integer> nodeCounts) {

    static BackendAssignment of(Graph graph, Backend primary, Backend cpuFallback, FallbackPolicy policy) {
        Map<Tensor, Backend> assigned = new IdentityHashMap<>();
        Map<Backend, Integer> counts = new LinkedHashMap<>();
        List<String> fallback = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        List<String> stateOffDevice = new ArrayList<>();
        for (Tensor t : graph.computeNodes()) {
            Backend b = null;
            if (primary.supportsOp(t)) {
                b = primary;
            } else if (policy == FallbackPolicy.CPU && cpuFallback != null && cpuFallback.supportsOp(t)) {
                b = cpuFallback;
                fallback.add(t.toString());
                if (touchesState(t)) stateOffDevice.add(t.toString());
            } else {
                unsupported.add(t.toString());
            }
            if (b != null) {
                assigned.put(t, b);
                counts.merge(b, 1, Integer::sum);
            }
        }
        if (!unsupported.isEmpty()) {
            throw new UnsupportedOpException(primary.registryName() + " cannot compute " + unsupported.size()
                    + " node(s)"
                    + (policy == FallbackPolicy.FAIL ? " and CPU fallback is off (fallback=cpu turns it on)" : "")
                    + ": " + unsupported);
        }
        if (!stateOffDevice.isEmpty()) {
            throw new UnsupportedOpException(primary.registryName() + " cannot compute " + stateOffDevice.size()
                    + " node(s) that read or write persistent tensors, and those cannot fall back to the CPU (the state lives on "
                    + primary.registryName() + "): " + stateOffDevice);
        }
        return new BackendAssignment(assigned, List.copyOf(fallback), counts);
    }

    private static boolean touchesState(Tensor t) {
        if (t.isPersistent()) return true;
        for (Tensor in : t.inputs()) if (in.isPersistent()) return true;
        return false;
    }
}
