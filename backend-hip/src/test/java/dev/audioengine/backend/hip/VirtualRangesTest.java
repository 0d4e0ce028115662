package dev.audioengine.backend.hip;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemoryLayout.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The VMM pool's bookkeeping (hip.vmm=on) without a GPU, and its native structs as hip_runtime_api.h lays them out. */
class VirtualRangesTest {
    private static final long GRAN = 4096;

    /** What HipVmmPool does: allocate, else grow by growthFor and allocate again. */
    private static long allocate(VirtualRanges r, long bytes) {
        long off = r.allocate(bytes);
        if (off >= 0) return off;
        long grow = r.growthFor(bytes);
        if (grow < 0) return -1;
        r.grow(grow);
        off = r.allocate(bytes);
        assertThat(off).as("an allocation after growing by growthFor(" + bytes + ")").isNotNegative();
        return off;
    }

    @Test
    void growsOnlyByWhatTheTailLacksInGranularitySteps() {
        VirtualRanges r = new VirtualRanges(4 * GRAN, GRAN);
        assertThat(allocate(r, 1000)).isZero();
        assertThat(r.mapped()).isEqualTo(GRAN);
        assertThat(allocate(r, 3000)).as("fits the free tail of the first granule").isEqualTo(1024);
        assertThat(r.mapped()).isEqualTo(GRAN);
        long off = allocate(r, 5000);
        assertThat(off).isEqualTo(GRAN);
        assertThat(r.mapped()).isEqualTo(3 * GRAN);
        assertThat(r.growthFor(2 * GRAN)).as("the reservation holds 4 granules").isEqualTo(-1);
        assertThat(allocate(r, 2 * GRAN)).isEqualTo(-1);
    }

    @Test
    void aFreeRangeTouchingTheEndCountsTowardsGrowth() {
        VirtualRanges r = new VirtualRanges(8 * GRAN, GRAN);
        allocate(r, 1000);                                    // [0, 1024) used, [1024, 4096) free
        assertThat(r.growthFor(6000)).isEqualTo(GRAN);        // 6144 - 3072 free at the end -> one granule
        assertThat(allocate(r, 6000)).isEqualTo(1024);
        assertThat(r.mapped()).isEqualTo(2 * GRAN);
    }

    @Test
    void freedRangesMergeAndAreReusedBeforeGrowing() {
        VirtualRanges r = new VirtualRanges(16 * GRAN, GRAN);
        long a = allocate(r, GRAN), b = allocate(r, GRAN), c = allocate(r, GRAN);
        long mapped = r.mapped();
        r.free(a);
        r.free(c);
        r.free(b);
        assertThat(r.freeRanges()).as("three neighbours merged into one").isEqualTo(1);
        assertThat(allocate(r, 3 * GRAN)).isZero();
        assertThat(r.mapped()).isEqualTo(mapped);
        assertThatThrownBy(() -> r.free(12345)).hasMessageContaining("not an allocation of this pool");
    }

    @Test
    void randomAllocationsNeverOverlapAndEverythingReturns() {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        VirtualRanges r = new VirtualRanges(1024 * GRAN, GRAN);
        List<long[]> live = new ArrayList<>(); // {offset, bytes}
        for (int step = 0; step < 2000; step++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                long[] x = live.remove(rnd.nextInt(live.size()));
                r.free(x[0]);
                continue;
            }
            long bytes = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(20000) : 1 + rnd.nextInt(700);
            long off = allocate(r, bytes);
            if (off < 0) continue;
            assertThat(off % VirtualRanges.ALIGNMENT).as("seed %d", seed).isZero();
            assertThat(off + bytes).as("seed %d", seed).isLessThanOrEqualTo(r.mapped());
            for (long[] y : live) {
                assertThat(off + bytes <= y[0] || y[0] + y[1] <= off).as("seed %d: [%d,+%d) overlaps [%d,+%d)", seed, off, bytes, y[0], y[1]).isTrue();
            }
            live.add(new long[] {off, bytes});
            assertThat(r.usedBytes() + r.freeBytes()).as("seed %d", seed).isEqualTo(r.mapped());
        }
        for (long[] x : live) r.free(x[0]);
        assertThat(r.freeRanges()).as("seed %d", seed).isEqualTo(1);
        assertThat(r.freeBytes()).isEqualTo(r.mapped());
    }

    @Test
    void vmmStructsMatchHipRuntimeApiH() {
        // hipMemAllocationProp { int type; int requestedHandleType; hipMemLocation location; void* win32HandleMetaData;
        //   struct { unsigned char compressionType; unsigned char gpuDirectRDMACapable; unsigned short usage; } allocFlags; }
        assertThat(HipVmmPool.ALLOCATION_PROP.byteSize()).isEqualTo(32);
        assertThat(HipVmmPool.ALLOCATION_PROP.byteOffset(PathElement.groupElement("location"))).isEqualTo(8);
        assertThat(HipVmmPool.ALLOCATION_PROP.byteOffset(PathElement.groupElement("win32HandleMetaData"))).isEqualTo(16);
        assertThat(HipVmmPool.ALLOCATION_PROP.byteOffset(PathElement.groupElement("allocFlags"))).isEqualTo(24);
        // hipMemAccessDesc { hipMemLocation location; hipMemAccessFlags flags; }
        assertThat(HipVmmPool.ACCESS_DESC.byteSize()).isEqualTo(12);
        assertThat(HipVmmPool.ACCESS_DESC.byteOffset(PathElement.groupElement("flags"))).isEqualTo(8);
        assertThat(List.of(HipVmmPool.TYPE_PINNED, HipVmmPool.LOCATION_DEVICE, HipVmmPool.PROT_READ_WRITE)).containsExactly(1, 1, 3);
    }
}
