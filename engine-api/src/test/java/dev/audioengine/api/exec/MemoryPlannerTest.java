package dev.audioengine.api.exec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

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
                assertThat(disjoint).as("seed %d: %s overlaps %s while both live", seed, a, b).isTrue();
            }
        }
        assertThat(res.arenaBytes()).as("short lifetimes must share memory (seed %d)", seed).isLessThan(sum / 2);
    }
}
