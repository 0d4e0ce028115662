package dev.audioengine.gpu.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The VMM pool over a fake address space: growth in chunks, reuse and merging of freed blocks, trimming, limits. */
class VmmPoolTest {
    private static final long MIB = 1L << 20;
    private static final long BASE = FakeVirtualMemory.BASE;

    @Test
    void growsInSteps_alignsBlocks_andReusesFreedOnes() {
        FakeVirtualMemory vm = new FakeVirtualMemory(2 * MIB, 1L << 30);
        try (VmmPool pool = new VmmPool(vm, 100 * MIB + 1)) {
            assertThat(pool.reservedBytes()).as("rounded up to the granularity").isEqualTo(102 * MIB);
            long a = pool.alloc(1);
            long b = pool.alloc(1000);
            assertThat(a).isEqualTo(BASE);
            assertThat(b).isEqualTo(BASE + VmmPool.ALIGN);
            assertThat(vm.calls).containsExactly("reserve " + 102 * MIB, "map 0+" + VmmPool.MIN_GROWTH);
            pool.free(a);
            assertThat(pool.alloc(200)).as("the freed first block fits").isEqualTo(a);
            long big = pool.alloc(40 * MIB);
            assertThat(big).isEqualTo(BASE + VmmPool.ALIGN + 1024);
            assertThat(pool.mappedBytes())
                    .as("the free tail plus one more step: no copy, the block spans both chunks")
                    .isEqualTo(2 * VmmPool.MIN_GROWTH);
            assertThat(vm.calls)
                    .containsExactly(
                            "reserve " + 102 * MIB,
                            "map 0+" + VmmPool.MIN_GROWTH,
                            "map " + VmmPool.MIN_GROWTH + "+" + VmmPool.MIN_GROWTH);
        }
        assertThat(vm.calls.getLast()).isEqualTo("unreserve " + 102 * MIB);
        assertThat(vm.mappedNow).isZero();
    }

    @Test
    void freedNeighboursMergeSoALargerBlockFitsWithoutGrowing() {
        FakeVirtualMemory vm = new FakeVirtualMemory(2 * MIB, 1L << 30);
        try (VmmPool pool = new VmmPool(vm, 64 * MIB)) {
            long a = pool.alloc(8 * MIB), b = pool.alloc(8 * MIB), c = pool.alloc(8 * MIB);
            pool.alloc(8 * MIB);
            pool.free(a);
            pool.free(c);
            pool.free(b);
            int maps = vm.calls.size();
            assertThat(pool.alloc(24 * MIB)).isEqualTo(a);
            assertThat(vm.calls).hasSize(maps);
        }
    }

    @Test
    void trimUnmapsOnlyTrailingChunksNothingUses() {
        FakeVirtualMemory vm = new FakeVirtualMemory(2 * MIB, 1L << 30);
        try (VmmPool pool = new VmmPool(vm, 256 * MIB)) {
            long first = pool.alloc(MIB);
            long second = pool.alloc(VmmPool.MIN_GROWTH); // does not fit the first chunk's rest: a second chunk
            assertThat(pool.mappedBytes()).isEqualTo(2 * VmmPool.MIN_GROWTH);
            assertThat(pool.trim()).as("both chunks hold a live block").isZero();
            pool.free(second);
            assertThat(pool.trim()).isEqualTo(VmmPool.MIN_GROWTH);
            assertThat(vm.calls.getLast()).isEqualTo("unmap " + VmmPool.MIN_GROWTH + "+" + VmmPool.MIN_GROWTH);
            pool.free(first);
            assertThat(pool.trim()).isEqualTo(VmmPool.MIN_GROWTH);
            assertThat(pool.mappedBytes()).isZero();
            assertThat(pool.alloc(MIB)).as("grows again from the base").isEqualTo(BASE);
        }
    }

    @Test
    void aFullDeviceOrReservationGivesZeroAndAForeignAddressIsRefused() {
        FakeVirtualMemory vm = new FakeVirtualMemory(2 * MIB, 40 * MIB);
        try (VmmPool pool = new VmmPool(vm, 1L << 30)) {
            assertThat(pool.alloc(10 * MIB)).isNotZero();
            assertThat(pool.alloc(30 * MIB))
                    .as("a 32 MiB step does not fit the device, the 8 MiB missing does")
                    .isNotZero();
            assertThat(vm.calls)
                    .containsSubsequence(
                            "map failed " + VmmPool.MIN_GROWTH + "+" + VmmPool.MIN_GROWTH,
                            "map " + VmmPool.MIN_GROWTH + "+" + 8 * MIB);
            assertThat(pool.alloc(20 * MIB)).as("device full").isZero();
        }
        try (VmmPool pool = new VmmPool(new FakeVirtualMemory(2 * MIB, 1L << 40), 8 * MIB)) {
            assertThat(pool.alloc(6 * MIB)).isNotZero();
            assertThat(pool.alloc(4 * MIB)).as("reservation full").isZero();
            assertThatThrownBy(() -> pool.free(BASE + 12345))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a block");
        }
    }

    /** Random allocations and frees: live blocks never overlap, stay inside the mapped part, and the books balance. */
    @Test
    void randomAllocationsNeverOverlap() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        FakeVirtualMemory vm = new FakeVirtualMemory(2 * MIB, 1L << 32);
        try (VmmPool pool = new VmmPool(vm, 1L << 32)) {
            TreeMap<Long, Long> live = new TreeMap<>();
            List<Long> order = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                if (!order.isEmpty() && r.nextInt(3) == 0) {
                    long a = order.remove(r.nextInt(order.size()));
                    live.remove(a);
                    pool.free(a);
                } else {
                    long size = 1 + r.nextInt(r.nextBoolean() ? 4096 : 8 << 20);
                    long a = pool.alloc(size);
                    assertThat(a).as("seed " + seed).isNotZero();
                    assertThat(a % VmmPool.ALIGN).as("seed " + seed).isZero();
                    var below = live.floorEntry(a);
                    assertThat(below == null || below.getKey() + below.getValue() <= a)
                            .as("overlaps the block below, seed " + seed)
                            .isTrue();
                    var above = live.ceilingEntry(a);
                    assertThat(above == null || a + size <= above.getKey())
                            .as("overlaps the block above, seed " + seed)
                            .isTrue();
                    assertThat(a + size).as("seed " + seed).isLessThanOrEqualTo(BASE + pool.mappedBytes());
                    live.put(a, size);
                    order.add(a);
                }
                if (i % 500 == 0) pool.trim();
            }
            for (long a : order) pool.free(a);
            assertThat(pool.usedBytes()).isZero();
            pool.trim();
            assertThat(pool.mappedBytes())
                    .as("everything free trims to nothing, seed " + seed)
                    .isZero();
        }
    }
}
