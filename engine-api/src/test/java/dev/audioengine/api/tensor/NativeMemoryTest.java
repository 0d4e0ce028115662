package dev.audioengine.api.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link NativeMemory}: what {@code Arena.allocate} promises (zeroed, aligned, exactly sized, freed with its arena),
 * from {@code calloc}. The C library's memory is reused after {@code free}, so zeroes are checked on blocks allocated
 * after others of the same sizes were dirtied and freed: a {@code malloc} in its place fails this.
 */
class NativeMemoryTest {
    private static final long[] SIZES = {0, 1, 7, 63, 64, 65, 1000, 4097, 3_000_001};
    private static final long[] ALIGNMENTS = {1, 8, 16, 64, 4096};

    @Test
    void theCLibraryGivesTheMemoryHere() {
        // the tests run with native access, as the launcher gives the engine: the calloc path is the one tested
        assertThat(NativeMemory.fromCLibrary()).isTrue();
    }

    @Test
    void zeroedAlignedAndExactlySizedEvenWhereFreedMemoryWasDirty() {
        Random r = new Random();
        for (int round = 0; round < 3; round++) {
            try (Arena arena = Arena.ofConfined()) {
                List<MemorySegment> all = new ArrayList<>();
                for (long size : SIZES)
                    for (long alignment : ALIGNMENTS) {
                        MemorySegment s = NativeMemory.zeroed(arena, size, alignment);
                        String what = size + " bytes at alignment " + alignment;
                        assertThat(s.byteSize()).as(what).isEqualTo(size);
                        assertThat(s.address() % alignment).as(what).isZero();
                        assertThat(allZero(s)).as(what + ", round " + round).isTrue();
                        all.add(s);
                    }
                // dirty every byte: the next round's blocks come from the same freed memory
                for (MemorySegment s : all) s.fill((byte) (1 + r.nextInt(255)));
            }
        }
    }

    @Test
    void theArenaFreesWhatItOwns() {
        long before = NativeMemory.liveBytes();
        MemorySegment kept;
        try (Arena arena = Arena.ofShared()) {
            long asked = 0;
            for (long size : SIZES) {
                NativeMemory.zeroed(arena, size, 64);
                asked += size;
            }
            kept = NativeMemory.zeroed(arena, 100, 64);
            assertThat(NativeMemory.liveBytes() - before).isGreaterThanOrEqualTo(asked + 100);
        }
        assertThat(NativeMemory.liveBytes()).isEqualTo(before);
        assertThatThrownBy(() -> kept.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aClosedArenaOwnsNothingAndNothingLeaks() {
        Arena arena = Arena.ofConfined();
        arena.close();
        long before = NativeMemory.liveBytes();
        assertThatThrownBy(() -> NativeMemory.zeroed(arena, 1 << 20, 64)).isInstanceOf(IllegalStateException.class);
        assertThat(NativeMemory.liveBytes()).isEqualTo(before);
    }

    @Test
    void badSizesAndAlignmentsAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            assertThatThrownBy(() -> NativeMemory.zeroed(arena, -1, 64))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-1 bytes");
            assertThatThrownBy(() -> NativeMemory.zeroed(arena, 10, 48))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("alignment 48");
        }
    }

    private static boolean allZero(MemorySegment s) {
        for (long i = 0; i < s.byteSize(); i++) if (s.get(ValueLayout.JAVA_BYTE, i) != 0) return false;
        return true;
    }
}
