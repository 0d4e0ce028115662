package dev.audioengine.backend.vulkan.queue;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.BUFFER_COPY;

import dev.audioengine.backend.vulkan.buffer.VulkanBuffer;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.ffm.VkStruct;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Host to device and back. Host-visible tensors are copied directly (after the queue is idle,
 * which every submit-and-wait guarantees); others go through a mapped staging buffer in chunks.
 */
public final class Transfers implements AutoCloseable {
    private static final long STAGING_BYTES = 16L << 20;

    private final VulkanContext ctx;
    private final CommandQueue queue;
    private VulkanBuffer staging;

    public Transfers(VulkanContext ctx, CommandQueue queue) {
        this.ctx = ctx;
        this.queue = queue;
    }

    public void upload(VulkanBuffer dst, long dstOffset, MemorySegment src) {
        check(dst, dstOffset, src.byteSize());
        if (dst.mapped != null) {
            MemorySegment.copy(src, 0, dst.mapped, dstOffset, src.byteSize());
            return;
        }
        for (long done = 0; done < src.byteSize(); ) {
            long n = Math.min(STAGING_BYTES, src.byteSize() - done);
            MemorySegment.copy(src, done, staging().mapped, 0, n);
            copy(staging(), 0, dst, dstOffset + done, n);
            done += n;
        }
    }

    public void download(VulkanBuffer src, long srcOffset, MemorySegment dst) {
        check(src, srcOffset, dst.byteSize());
        if (src.mapped != null) {
            MemorySegment.copy(src.mapped, srcOffset, dst, 0, dst.byteSize());
            return;
        }
        for (long done = 0; done < dst.byteSize(); ) {
            long n = Math.min(STAGING_BYTES, dst.byteSize() - done);
            copy(src, srcOffset + done, staging(), 0, n);
            MemorySegment.copy(staging().mapped, 0, dst, done, n);
            done += n;
        }
    }

    private static void check(VulkanBuffer b, long offset, long bytes) {
        if (b.isClosed()) throw new IllegalStateException("the Vulkan buffer is closed");
        if (offset < 0 || offset + bytes > b.byteSize()) {
            throw new IndexOutOfBoundsException(
                    "copy of " + bytes + " bytes at offset " + offset + " outside a buffer of " + b.byteSize());
        }
    }

    private VulkanBuffer staging() {
        if (staging == null) staging = VulkanBuffer.create(ctx, STAGING_BYTES, ctx.stagingMemoryType, true, b -> {});
        return staging;
    }

    private void copy(VulkanBuffer from, long fromOffset, VulkanBuffer to, long toOffset, long bytes) {
        MemorySegment cb = queue.begin(true);
        try (Arena a = Arena.ofConfined()) {
            VkStruct region = VkStruct.plain(a, BUFFER_COPY)
                    .l("srcOffset", fromOffset)
                    .l("dstOffset", toOffset)
                    .l("size", bytes);
            ctx.api.call("vkCmdCopyBuffer", cb, from.buffer, to.buffer, 1, region.segment);
            queue.end(cb);
            queue.submitAndWait(cb);
        } finally {
            queue.free(cb);
        }
    }

    @Override
    public void close() {
        if (staging != null) staging.close();
    }
}
