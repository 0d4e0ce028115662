package dev.audioengine.gpu.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * Kernel arguments for cuLaunchKernel's {@code void** kernelParams}: each value in its own
 * native slot, in the kernel's parameter order; the driver copies each by its declared size.
 * Device pointers are CUdeviceptr values (64-bit), a null pointer is 0.
 */
final class LaunchArgs {
    private final SegmentAllocator arena;
    private final List<MemorySegment> slots = new ArrayList<>();

    LaunchArgs(SegmentAllocator arena) {
        this.arena = arena;
    }

    LaunchArgs ptr(long devicePointer) {
        return i64(devicePointer);
    }

    LaunchArgs i64(long v) {
        slots.add(arena.allocateFrom(JAVA_LONG, v));
        return this;
    }

    LaunchArgs i32(int v) {
        slots.add(arena.allocateFrom(JAVA_INT, v));
        return this;
    }

    LaunchArgs f32(float v) {
        slots.add(arena.allocateFrom(JAVA_FLOAT, v));
        return this;
    }

    LaunchArgs desc(TensorDesc d) {
        MemorySegment s = arena.allocate(TensorDesc.LAYOUT);
        d.write(s);
        slots.add(s);
        return this;
    }

    /** The pointer array to hand to cuLaunchKernel; lives as long as the allocator's memory. */
    MemorySegment pack() {
        MemorySegment arr = arena.allocate(ADDRESS, Math.max(1, slots.size()));
        for (int i = 0; i < slots.size(); i++) arr.setAtIndex(ADDRESS, i, slots.get(i));
        return arr;
    }
}
