package dev.audioengine.api.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MemoryPlannerTest {
    @Test
    void liveBuffersNeverOverlapAndDeadOnesAreReused() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        List<MemoryPlanner.Request> reqs = new ArrayList<>();
        long sum = 0;
        for (int k = 0; k < 200; k++) {
            int first = r.nextInt(100);
            long bytes = 1 + r.nextInt(10_000);
            reqs.add(new MemoryPlanner.Request(k, bytes, first, first + r.nextInt(10)));
            sum += MemoryPlanner.align(bytes);
        }
        MemoryPlanner.Result res = MemoryPlanner.plan(reqs);
        List<MemoryPlanner.Placement> ps = res.placements();
        assertThat(ps).hasSize(200);
        for (MemoryPlanner.Placement a : ps) {
            assertThat(a.offset() % MemoryPlanner.ALIGN).isZero();
            assertThat(a.offset() + a.bytes()).isLessThanOrEqualTo(res.arenaBytes());
            for (MemoryPlanner.Placement b : ps) {
                if (a == b || a.last() < b.first() || b.last() < a.first()) continue;
                boolean disjoint = a.offset() + a.bytes() <= b.offset() || b.offset() + b.bytes() <= a.offset();
                assertThat(disjoint)
                        .as("seed %d: %s overlaps %s while both live", seed, a, b)
                        .isTrue();
            }
        }
        assertThat(res.arenaBytes())
                .as("short lifetimes must share memory (seed %d)", seed)
                .isLessThan(sum / 2);
    }

    /** The planner walks its placements by offset; the plan is the plain first fit over each request's sorted live set. */
    @Test
    void placesEveryBufferWhereFirstFitOverItsLiveSetWould() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int round = 0; round < 20; round++) {
            List<MemoryPlanner.Request> reqs = new ArrayList<>();
            int n = 1 + r.nextInt(400);
            for (int k = 0; k < n; k++) {
                int first = r.nextInt(200);
                // repeated sizes make equal offsets and ties in the order
                long bytes = r.nextBoolean() ? 256L * (1 + r.nextInt(4)) : 1 + r.nextInt(50_000);
                reqs.add(new MemoryPlanner.Request(k, bytes, first, first + r.nextInt(r.nextBoolean() ? 5 : 150)));
            }
            MemoryPlanner.Result got = MemoryPlanner.plan(reqs);
            MemoryPlanner.Result want = firstFit(reqs);
            assertThat(got.placements()).as("seed %d round %d", seed, round).isEqualTo(want.placements());
            assertThat(got.arenaBytes()).isEqualTo(want.arenaBytes());
        }
    }

    private static MemoryPlanner.Result firstFit(List<MemoryPlanner.Request> requests) {
        List<MemoryPlanner.Request> order = new ArrayList<>(requests);
        order.sort(java.util.Comparator.comparingLong(MemoryPlanner.Request::bytes)
                .reversed()
                .thenComparingInt(MemoryPlanner.Request::key));
        List<MemoryPlanner.Placement> placed = new ArrayList<>();
        long arena = 0;
        for (MemoryPlanner.Request q : order) {
            long size = MemoryPlanner.align(Math.max(q.bytes(), 1));
            List<MemoryPlanner.Placement> live = new ArrayList<>();
            for (MemoryPlanner.Placement p : placed) if (p.first() <= q.last() && q.first() <= p.last()) live.add(p);
            live.sort(java.util.Comparator.comparingLong(MemoryPlanner.Placement::offset));
            long offset = 0;
            for (MemoryPlanner.Placement p : live) {
                if (offset + size <= p.offset()) break;
                offset = Math.max(offset, p.offset() + MemoryPlanner.align(p.bytes()));
            }
            placed.add(new MemoryPlanner.Placement(q.key(), offset, q.bytes(), q.first(), q.last()));
            arena = Math.max(arena, offset + size);
        }
        return new MemoryPlanner.Result(placed, arena);
    }
}
