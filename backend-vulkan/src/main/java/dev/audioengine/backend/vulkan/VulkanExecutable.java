package dev.audioengine.backend.vulkan;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.spi.Executable;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.ffm.VkApi;
import dev.audioengine.backend.vulkan.ffm.VkStruct;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Pipelines;
import dev.audioengine.backend.vulkan.queue.CommandQueue;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A compiled segment: every dispatch recorded once into one command buffer (with a barrier
 * between dependent dispatches) and one descriptor set each from a pool of its own; a run is
 * one submit and one fence wait.
 */
final class VulkanExecutable implements Executable {
    private final VulkanContext ctx;
    private final CommandQueue queue;
    private final long descriptorPool;
    private final MemorySegment commandBuffer;
    private final int dispatches;
    private boolean closed;

    VulkanExecutable(VulkanContext ctx, CommandQueue queue, Pipelines pipelines, List<Dispatch> list) {
        this.ctx = ctx;
        this.queue = queue;
        this.dispatches = list.size();
        VkApi api = ctx.api;
        int descriptors = list.stream().mapToInt(d -> d.shader().bindings).sum();
        long pool = 0;
        MemorySegment cb = null;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            VkStruct size = VkStruct.plain(a, DESCRIPTOR_POOL_SIZE)
                    .i("type", DESCRIPTOR_TYPE_STORAGE_BUFFER)
                    .i("descriptorCount", Math.max(1, descriptors));
            VkStruct poolInfo = VkStruct.typed(a, DESCRIPTOR_POOL_CREATE, DESCRIPTOR_POOL_CREATE_INFO)
                    .i("maxSets", Math.max(1, list.size()))
                    .i("poolSizeCount", 1)
                    .p("pPoolSizes", size.segment);
            api.check("vkCreateDescriptorPool", ctx.device, poolInfo.segment, MemorySegment.NULL, out);
            pool = out.get(JAVA_LONG, 0);

            cb = queue.begin(false);
            boolean first = true;
            for (Dispatch d : list) {
                if (!first) queue.barrier(cb);
                first = false;
                Pipelines.Pipeline p = pipelines.get(d.shader(), d.spec());
                long set = allocateSet(a, pool, p);
                write(a, set, d);
                api.call("vkCmdBindPipeline", cb, PIPELINE_BIND_POINT_COMPUTE, p.pipeline());
                api.call(
                        "vkCmdBindDescriptorSets",
                        cb,
                        PIPELINE_BIND_POINT_COMPUTE,
                        p.layout(),
                        0,
                        1,
                        a.allocateFrom(JAVA_LONG, set),
                        0,
                        MemorySegment.NULL);
                int[] push = new int[Pipelines.PUSH_CONSTANT_BYTES / 4];
                System.arraycopy(d.push(), 0, push, 0, d.push().length);
                api.call(
                        "vkCmdPushConstants",
                        cb,
                        p.layout(),
                        SHADER_STAGE_COMPUTE,
                        0,
                        Pipelines.PUSH_CONSTANT_BYTES,
                        a.allocateFrom(JAVA_INT, push));
                api.call("vkCmdDispatch", cb, d.groupsX(), d.groupsY(), d.groupsZ());
            }
            queue.end(cb);
        } catch (RuntimeException e) {
            if (cb != null) queue.free(cb);
            if (pool != 0) api.call("vkDestroyDescriptorPool", ctx.device, pool, MemorySegment.NULL);
            throw e;
        }
        this.descriptorPool = pool;
        this.commandBuffer = cb;
    }

    private long allocateSet(Arena a, long pool, Pipelines.Pipeline p) {
        VkStruct info = VkStruct.typed(a, DESCRIPTOR_SET_ALLOCATE, DESCRIPTOR_SET_ALLOCATE_INFO)
                .l("descriptorPool", pool)
                .i("descriptorSetCount", 1)
                .p("pSetLayouts", a.allocateFrom(JAVA_LONG, p.setLayout()));
        MemorySegment out = a.allocate(JAVA_LONG);
        ctx.api.check("vkAllocateDescriptorSets", ctx.device, info.segment, out);
        return out.get(JAVA_LONG, 0);
    }

    private void write(Arena a, long set, Dispatch d) {
        int n = d.bindings().size();
        MemorySegment infos = a.allocate(DESCRIPTOR_BUFFER_INFO, n);
        MemorySegment writes = a.allocate(WRITE_DESCRIPTOR, n);
        for (int b = 0; b < n; b++) {
            Dispatch.Binding binding = d.bindings().get(b);
            VkStruct info = VkStruct.at(infos, DESCRIPTOR_BUFFER_INFO, b)
                    .l("buffer", binding.buffer().buffer)
                    .l("offset", binding.offset())
                    .l("range", binding.range());
            VkStruct.at(writes, WRITE_DESCRIPTOR, b)
                    .i("sType", WRITE_DESCRIPTOR_SET)
                    .l("dstSet", set)
                    .i("dstBinding", b)
                    .i("descriptorCount", 1)
                    .i("descriptorType", DESCRIPTOR_TYPE_STORAGE_BUFFER)
                    .p("pBufferInfo", info.segment);
        }
        ctx.api.call("vkUpdateDescriptorSets", ctx.device, n, writes, 0, MemorySegment.NULL);
    }

    int dispatchCount() {
        return dispatches;
    }

    @Override
    public void run() {
        if (closed) throw new IllegalStateException("this Vulkan executable is closed");
        queue.submitAndWait(commandBuffer);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        queue.free(commandBuffer);
        ctx.api.call("vkDestroyDescriptorPool", ctx.device, descriptorPool, MemorySegment.NULL);
    }
}
