package dev.audioengine.backend.vulkan.queue;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.ffm.VkApi;
import dev.audioengine.backend.vulkan.ffm.VkResults;
import dev.audioengine.backend.vulkan.ffm.VkStruct;
import dev.audioengine.backend.vulkan.ffm.VulkanException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The compute queue: a command pool for recorded runs and one-shot copies, a fence, and
 * submit-and-wait. Every command buffer starts and ends with a global memory barrier, so work
 * from earlier submissions (and host writes) is visible to it and its writes are visible to the
 * host once the fence signals.
 */
public final class CommandQueue implements AutoCloseable {
    /** Wait at most this long for one submission: a hang becomes an error that names the wait. */
    private static final long TIMEOUT_NANOS = 600L * 1_000_000_000L;

    private final VulkanContext ctx;
    private final long pool;
    private final long fence;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment submitInfo;
    private final MemorySegment commandSlot;
    private final MemorySegment fenceSlot;
    private long submits;

    public CommandQueue(VulkanContext ctx) {
        this.ctx = ctx;
        VkApi api = ctx.api;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            VkStruct poolInfo = VkStruct.typed(a, COMMAND_POOL_CREATE, COMMAND_POOL_CREATE_INFO)
                    .i("flags", COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER)
                    .i("queueFamilyIndex", ctx.queueFamily);
            api.check("vkCreateCommandPool", ctx.device, poolInfo.segment, MemorySegment.NULL, out);
            pool = out.get(JAVA_LONG, 0);
            VkStruct fenceInfo = VkStruct.typed(a, FENCE_CREATE, FENCE_CREATE_INFO);
            try {
                api.check("vkCreateFence", ctx.device, fenceInfo.segment, MemorySegment.NULL, out);
            } catch (RuntimeException e) {
                api.call("vkDestroyCommandPool", ctx.device, pool, MemorySegment.NULL);
                throw e;
            }
            fence = out.get(JAVA_LONG, 0);
        }
        commandSlot = arena.allocate(ADDRESS);
        fenceSlot = arena.allocateFrom(JAVA_LONG, fence);
        submitInfo = VkStruct.typed(arena, SUBMIT, SUBMIT_INFO)
                .i("commandBufferCount", 1)
                .p("pCommandBuffers", commandSlot)
                .segment;
    }

    /** A primary command buffer, in the recording state, that begins with the global barrier. */
    public MemorySegment begin(boolean oneTime) {
        try (Arena a = Arena.ofConfined()) {
            VkStruct alloc = VkStruct.typed(a, COMMAND_BUFFER_ALLOCATE, COMMAND_BUFFER_ALLOCATE_INFO)
                    .l("commandPool", pool)
                    .i("level", COMMAND_BUFFER_LEVEL_PRIMARY)
                    .i("commandBufferCount", 1);
            MemorySegment out = a.allocate(ADDRESS);
            ctx.api.check("vkAllocateCommandBuffers", ctx.device, alloc.segment, out);
            MemorySegment cb = out.get(ADDRESS, 0);
            VkStruct begin = VkStruct.typed(a, COMMAND_BUFFER_BEGIN, COMMAND_BUFFER_BEGIN_INFO)
                    .i("flags", oneTime ? COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT : 0);
            ctx.api.check("vkBeginCommandBuffer", cb, begin.segment);
            barrier(cb);
            return cb;
        }
    }

    /** Ends recording with the barrier that makes every write visible to the host. */
    public void end(MemorySegment cb) {
        barrier(cb);
        ctx.api.check("vkEndCommandBuffer", cb);
    }

    /** Everything before (shader and transfer writes) is visible to everything after, host included. */
    public void barrier(MemorySegment cb) {
        try (Arena a = Arena.ofConfined()) {
            int writes = ACCESS_SHADER_WRITE | ACCESS_TRANSFER_WRITE | ACCESS_HOST_WRITE;
            int all = writes | ACCESS_SHADER_READ | ACCESS_TRANSFER_READ | ACCESS_HOST_READ;
            int stages = PIPELINE_STAGE_COMPUTE_SHADER | PIPELINE_STAGE_TRANSFER | PIPELINE_STAGE_HOST;
            VkStruct b = VkStruct.typed(a, MEMORY_BARRIER_STRUCT, MEMORY_BARRIER)
                    .i("srcAccessMask", writes)
                    .i("dstAccessMask", all);
            ctx.api.call(
                    "vkCmdPipelineBarrier",
                    cb,
                    stages,
                    stages,
                    0,
                    1,
                    b.segment,
                    0,
                    MemorySegment.NULL,
                    0,
                    MemorySegment.NULL);
        }
    }

    /** Submits one command buffer and blocks until the device has finished it. */
    public synchronized void submitAndWait(MemorySegment cb) {
        submits++;
        commandSlot.set(ADDRESS, 0, cb);
        ctx.api.check("vkQueueSubmit", ctx.queue, 1, submitInfo, fence);
        int r = ctx.api.result("vkWaitForFences", ctx.device, 1, fenceSlot, 1, TIMEOUT_NANOS);
        if (r == 2)
            throw new IllegalStateException("the Vulkan device did not finish a submission within 600 s (VK_TIMEOUT)");
        if (r != VkResults.VK_SUCCESS) throw new VulkanException("vkWaitForFences", r);
        ctx.api.check("vkResetFences", ctx.device, 1, fenceSlot);
    }

    /** Submissions so far (recorded runs and staging copies). */
    public synchronized long submits() {
        return submits;
    }

    public void free(MemorySegment cb) {
        try (Arena a = Arena.ofConfined()) {
            ctx.api.call("vkFreeCommandBuffers", ctx.device, pool, 1, a.allocateFrom(ADDRESS, cb));
        }
    }

    @Override
    public void close() {
        ctx.api.call("vkDestroyFence", ctx.device, fence, MemorySegment.NULL);
        ctx.api.call("vkDestroyCommandPool", ctx.device, pool, MemorySegment.NULL);
        arena.close();
    }
}
