package dev.audioengine.backend.vulkan.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/** A zeroed Vulkan struct in an arena, filled by field name (names as in {@link VkComputeStructs}). */
public final class VkStruct {
    public final MemorySegment segment;
    private final StructLayout layout;

    private VkStruct(MemorySegment segment, StructLayout layout) {
        this.segment = segment;
        this.layout = layout;
    }

    /** A struct whose first field is sType. */
    public static VkStruct typed(Arena arena, StructLayout layout, int sType) {
        return plain(arena, layout).i("sType", sType);
    }

    public static VkStruct plain(Arena arena, StructLayout layout) {
        return new VkStruct(arena.allocate(layout), layout);
    }

    /** The {@code index}-th struct of an array allocated with {@code arena.allocate(layout, n)}. */
    public static VkStruct at(MemorySegment array, StructLayout layout, int index) {
        return new VkStruct(array.asSlice(index * layout.byteSize(), layout.byteSize()), layout);
    }

    public VkStruct i(String field, int value) {
        segment.set(JAVA_INT, VkStructs.offset(layout, field), value);
        return this;
    }

    public VkStruct l(String field, long value) {
        segment.set(JAVA_LONG, VkStructs.offset(layout, field), value);
        return this;
    }

    public VkStruct p(String field, MemorySegment value) {
        segment.set(ADDRESS, VkStructs.offset(layout, field), value);
        return this;
    }

    public int getInt(String field) {
        return segment.get(JAVA_INT, VkStructs.offset(layout, field));
    }

    public long getLong(String field) {
        return segment.get(JAVA_LONG, VkStructs.offset(layout, field));
    }
}
