package dev.audioengine.api.exec;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase 3: where every storage root lives on every backend that holds it. Computed tensors and
 * inputs share one arena per backend, packed by {@link MemoryPlanner} (inputs live for the
 * whole run); constants are the engine's uploaded weights; persistent tensors are the caller's
 * own buffers, bound by name and never part of an arena.
 *
 * @param slots      per backend, each storage root's buffer and byte offset
 * @param arenas     the arenas this plan allocated (owned by the compiled graph)
 * @param arenaBytes planned arena bytes per backend registry name, as run summaries show them
 */
record MemoryPlan(Map<Backend, Map<Tensor, Slot>> slots, List<DeviceBuffer> arenas, Map<String, Long> arenaBytes) {

    /** A storage root's place: a buffer and the byte offset of its first element. */
    record Slot(DeviceBuffer buffer, long offset) {}

    /**
     * Allocates the arenas. On failure the arenas allocated so far are already in {@code arenas},
     * which the caller closes.
     */
    static MemoryPlan allocate(
            Schedule schedule,
            BackendAssignment assignment,
            WeightCache weights,
            Map<Tensor, PersistentTensor> states,
            List<DeviceBuffer> arenas) {
        Map<Backend, Map<Tensor, Slot>> slots = new IdentityHashMap<>();
        Map<String, Long> arenaBytes = new LinkedHashMap<>();
        List<Backend> backends = new ArrayList<>(assignment.nodeCounts().keySet());
        for (Backend b : schedule.leavesRead().keySet()) if (!backends.contains(b)) backends.add(b);
        for (Backend b : backends) {
            Map<Tensor, Schedule.Lifetime> l = schedule.lifetimes().getOrDefault(b, Map.of());
            List<Tensor> keys = new ArrayList<>(l.keySet());
            List<MemoryPlanner.Request> reqs = new ArrayList<>();
            for (int k = 0; k < keys.size(); k++) {
                Schedule.Lifetime life = l.get(keys.get(k));
                reqs.add(new MemoryPlanner.Request(k, keys.get(k).storageBytes(), life.first, life.last));
            }
            List<Tensor> leaves = new ArrayList<>(schedule.leavesRead().getOrDefault(b, java.util.Set.of()));
            for (Tensor leaf : leaves) {
                if (leaf.op() instanceof Op.Input) {
                    reqs.add(new MemoryPlanner.Request(keys.size(), leaf.storageBytes(), 0, schedule.end()));
                    keys.add(leaf);
                }
            }
            MemoryPlanner.Result plan = MemoryPlanner.plan(reqs);
            DeviceBuffer arena = b.allocate(Math.max(plan.arenaBytes(), MemoryPlanner.ALIGN));
            arenas.add(arena);
            arenaBytes.merge(b.registryName(), plan.arenaBytes(), Long::sum);
            Map<Tensor, Slot> s = slots.computeIfAbsent(b, k -> new LinkedHashMap<>());
            for (MemoryPlanner.Placement p : plan.placements()) s.put(keys.get(p.key()), new Slot(arena, p.offset()));
            for (Tensor leaf : leaves) {
                switch (leaf.op()) {
                    case Op.Constant c -> s.put(leaf, new Slot(weights.get(b, c.value()), 0));
                    case Op.State st -> s.put(leaf, new Slot(states.get(leaf).buffer(), 0));
                    default -> {} // inputs: placed in the arena above
                }
            }
        }
        return new MemoryPlan(slots, arenas, arenaBytes);
    }

    Slot slot(Backend b, Tensor root) {
        Map<Tensor, Slot> s = slots.get(b);
        return s == null ? null : s.get(root);
    }
}
