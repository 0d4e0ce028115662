package dev.audioengine.backend.hip;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gcnArchName offsets are re-derived here from the field lists of hip_runtime_api.h
 * (ROCm 5.2's hipDeviceProp_t, ROCm 6's hipDeviceProp_tR0600) with C's natural alignment.
 */
class HipDevicePropertiesTest {

    private static MemoryLayout chars(int n) {
        return MemoryLayout.sequenceLayout(n, JAVA_BYTE);
    }

    private static MemoryLayout ints(int n) {
        return MemoryLayout.sequenceLayout(n, JAVA_INT);
    }

    private static final MemoryLayout SIZE_T = JAVA_LONG;
    private static final MemoryLayout DEVICE_ARCH = JAVA_INT; // hipDeviceArch_t: 17 one-bit fields in an unsigned

    /** Offset of the field after {@code prefix} in a C struct (padding inserted as a C compiler would). */
    private static long offsetAfter(List<MemoryLayout> prefix, MemoryLayout next) {
        long offset = 0;
        for (MemoryLayout field : prefix) offset = align(offset, field.byteAlignment()) + field.byteSize();
        return align(offset, next.byteAlignment());
    }

    private static long align(long offset, long alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }

    @Test
    void rocm5GcnArchNameOffsetMatchesTheHeader() {
        List<MemoryLayout> prefix = List.of(
                chars(256),
                SIZE_T,
                SIZE_T,
                ints(3),
                ints(3),
                ints(3),
                ints(3),
                SIZE_T,
                ints(7),
                DEVICE_ARCH,
                ints(4),
                SIZE_T,
                ints(3));
        assertThat(offsetAfter(prefix, chars(256))).isEqualTo(HipRuntime.GCN_ARCH_NAME_OFFSET_R0000);
    }

    @Test
    void rocm6GcnArchNameOffsetMatchesTheHeader() {
        List<MemoryLayout> prefix = new ArrayList<>(List.of(
                chars(256),
                chars(16),
                chars(8),
                JAVA_INT, // name, uuid, luid, luidDeviceNodeMask
                SIZE_T,
                SIZE_T,
                ints(2),
                SIZE_T, // totalGlobalMem, sharedMemPerBlock, regsPerBlock+warpSize, memPitch
                ints(1 + 3 + 3 + 1),
                SIZE_T,
                ints(2), // maxThreadsPerBlock..clockRate, totalConstMem, major, minor
                SIZE_T,
                SIZE_T, // textureAlignment, texturePitchAlignment
                ints(6 + 3 + 2 + 2 + 3 + 2 + 3 + 3 + 1 + 2 + 3 + 2), // deviceOverlap..maxTextureCubemapLayered
                ints(1 + 2 + 3 + 2 + 3 + 1 + 2),
                SIZE_T, // maxSurface1D..maxSurfaceCubemapLayered, surfaceAlignment
                ints(16),
                SIZE_T, // concurrentKernels..localL1CacheSupported, sharedMemPerMultiprocessor
                ints(12),
                SIZE_T, // regsPerMultiprocessor..cooperativeMultiDeviceLaunch, sharedMemPerBlockOptin
                ints(4),
                SIZE_T, // pageableMemoryAccessUsesHostPageTables..accessPolicyMaxWindowSize, reservedSharedMemPerBlock
                ints(13),
                ints(63),
                ints(32))); // hostRegisterSupported..unifiedFunctionPointers, reserved, hipReserved
        assertThat(offsetAfter(prefix, chars(256))).isEqualTo(HipRuntime.GCN_ARCH_NAME_OFFSET_R0600);
    }

    @Test
    void theBufferHandedToTheRuntimeIsLargerThanEitherLayout() {
        long r0600Size = HipRuntime.GCN_ARCH_NAME_OFFSET_R0600 + 256 + 8 + 4 + 4 + 2 * ADDRESS.byteSize() + 6 * 4;
        assertThat(r0600Size).isEqualTo(1472);
        assertThat(HipRuntime.PROPERTIES_BUFFER_BYTES).isGreaterThan(r0600Size);
    }

    @Test
    void archNameIsReadOnlyWhenItLooksLikeOne() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment props = arena.allocate(HipRuntime.PROPERTIES_BUFFER_BYTES);
            props.setString(HipRuntime.GCN_ARCH_NAME_OFFSET_R0600, "gfx90a:sramecc+:xnack-");
            props.setString(HipRuntime.GCN_ARCH_NAME_OFFSET_R0000, "gfx1100");
            assertThat(HipRuntime.gcnArchNameAt(props, HipRuntime.GCN_ARCH_NAME_OFFSET_R0600))
                    .contains("gfx90a:sramecc+:xnack-");
            assertThat(HipRuntime.gcnArchNameAt(props, HipRuntime.GCN_ARCH_NAME_OFFSET_R0000))
                    .contains("gfx1100");

            props.setString(
                    HipRuntime.GCN_ARCH_NAME_OFFSET_R0000, "AMD Radeon"); // a name field read at the wrong offset
            assertThat(HipRuntime.gcnArchNameAt(props, HipRuntime.GCN_ARCH_NAME_OFFSET_R0000))
                    .isEmpty();

            MemorySegment unterminated = arena.allocate(HipRuntime.PROPERTIES_BUFFER_BYTES);
            unterminated.fill((byte) 'g');
            assertThat(HipRuntime.gcnArchNameAt(unterminated, 0)).isEmpty();
            assertThat(HipRuntime.gcnArchNameAt(arena.allocate(HipRuntime.PROPERTIES_BUFFER_BYTES), 0))
                    .isEmpty();
        }
    }
}
