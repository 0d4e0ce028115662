package dev.audioengine.backend.vulkan.buffer;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.OutOfDeviceMemoryException;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.ffm.VkApi;
import dev.audioengine.backend.vulkan.ffm.VkResults;
import dev.audioengine.backend.vulkan.ffm.VkStruct;
import dev.audioengine.backend.vulkan.ffm.VulkanException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * A VkBuffer with its own VkDeviceMemory; mapped for its whole life when the memory type is
 * host-visible (staging buffers, and tensors on devices whose local memory the host can see).
 */
public final class VulkanBuffer implements DeviceBuffer {
    private final VulkanContext ctx;
    public final long buffer;
    final long memory;
    private final long bytes;
    /** Bytes actually allocated: the request rounded up to 16. */
    public final long capacity;
    /** The mapped memory, or null when the host cannot see it. */
    public final MemorySegment mapped;

    private final Consumer<VulkanBuffer> onClose;
    private boolean closed;

    private VulkanBuffer(
            VulkanContext ctx,
            long buffer,
            long memory,
            long bytes,
            MemorySegment mapped,
            Consumer<VulkanBuffer> onClose) {
        this.ctx = ctx;
        this.buffer = buffer;
        this.memory = memory;
        this.bytes = bytes;
        this.capacity = Math.max(16, (bytes + 15) & ~15L);
        this.mapped = mapped;
        this.onClose = onClose;
    }

    /** Storage buffer usable as copy source and destination; zero-byte requests get a 16-byte buffer (Vulkan forbids size 0). */
    public static VulkanBuffer create(
            VulkanContext ctx, long bytes, int memoryType, boolean map, Consumer<VulkanBuffer> onClose) {
        VkApi api = ctx.api;
        long size = Math.max(16, (bytes + 15) & ~15L);
        long buffer = 0, memory = 0;
        try (Arena arena = Arena.ofConfined()) {
            VkStruct info = VkStruct.typed(arena, BUFFER_CREATE, BUFFER_CREATE_INFO)
                    .l("size", size)
                    .i("usage", BUFFER_USAGE_STORAGE | BUFFER_USAGE_TRANSFER_SRC | BUFFER_USAGE_TRANSFER_DST);
            MemorySegment out = arena.allocate(JAVA_LONG);
            checkAllocation(
                    ctx,
                    api.result("vkCreateBuffer", ctx.device, info.segment, MemorySegment.NULL, out),
                    "vkCreateBuffer",
                    bytes);
            buffer = out.get(JAVA_LONG, 0);
            VkStruct req = VkStruct.plain(arena, MEMORY_REQUIREMENTS);
            api.call("vkGetBufferMemoryRequirements", ctx.device, buffer, req.segment);
            if ((req.getInt("memoryTypeBits") & (1 << memoryType)) == 0) {
                throw new IllegalStateException(ctx.info.name() + " cannot place a storage buffer in memory type "
                        + memoryType + " (allowed mask 0x" + Integer.toHexString(req.getInt("memoryTypeBits")) + ")");
            }
            VkStruct alloc = VkStruct.typed(arena, MEMORY_ALLOCATE, MEMORY_ALLOCATE_INFO)
                    .l("allocationSize", req.getLong("size"))
                    .i("memoryTypeIndex", memoryType);
            checkAllocation(
                    ctx,
                    api.result("vkAllocateMemory", ctx.device, alloc.segment, MemorySegment.NULL, out),
                    "vkAllocateMemory",
                    bytes);
            memory = out.get(JAVA_LONG, 0);
            api.check("vkBindBufferMemory", ctx.device, buffer, memory, 0L);
            MemorySegment mapped = null;
            if (map) {
                MemorySegment ptr = arena.allocate(ADDRESS);
                api.check("vkMapMemory", ctx.device, memory, 0L, WHOLE_SIZE, 0, ptr);
                mapped = ptr.get(ADDRESS, 0).reinterpret(size);
            }
            return new VulkanBuffer(ctx, buffer, memory, bytes, mapped, onClose);
        } catch (RuntimeException e) {
            if (buffer != 0) api.call("vkDestroyBuffer", ctx.device, buffer, MemorySegment.NULL);
            if (memory != 0) api.call("vkFreeMemory", ctx.device, memory, MemorySegment.NULL);
            throw e;
        }
    }

    private static void checkAllocation(VulkanContext ctx, int result, String call, long bytes) {
        if (result == -1 || result == -2) { // VK_ERROR_OUT_OF_HOST_MEMORY, VK_ERROR_OUT_OF_DEVICE_MEMORY
            throw new OutOfDeviceMemoryException(
                    ctx.info.name() + " (" + call + ": " + VkResults.name(result) + ")", bytes, ctx.info.memoryFree());
        }
        if (result != VkResults.VK_SUCCESS) throw new VulkanException(call, result);
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Frees the memory; the caller makes sure no submitted work still uses it. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (mapped != null) ctx.api.call("vkUnmapMemory", ctx.device, memory);
        ctx.api.call("vkDestroyBuffer", ctx.device, buffer, MemorySegment.NULL);
        ctx.api.call("vkFreeMemory", ctx.device, memory, MemorySegment.NULL);
        onClose.accept(this);
    }

    @Override
    public String toString() {
        return "Vulkan buffer of " + bytes + " bytes";
    }
}
