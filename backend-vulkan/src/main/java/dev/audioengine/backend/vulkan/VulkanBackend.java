package dev.audioengine.backend.vulkan;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.backend.vulkan.buffer.VulkanBuffer;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.kernels.Operands;
import dev.audioengine.backend.vulkan.kernels.VulkanKernels;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Pipelines;
import dev.audioengine.backend.vulkan.queue.CommandQueue;
import dev.audioengine.backend.vulkan.queue.Transfers;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A Vulkan device as a backend. Buffers are VkBuffers with their own memory; a compiled segment
 * is one command buffer recorded once (see {@link VulkanExecutable}); close destroys every
 * executable, buffer, pipeline and finally the device and instance.
 */
public final class VulkanBackend implements Backend {
    private final VulkanContext ctx;
    private final CommandQueue queue;
    private final Pipelines pipelines;
    private final Transfers transfers;
    private final Set<VulkanBuffer> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<VulkanExecutable> executables = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;
    private int reportedMessages;
    private static final System.Logger LOG = System.getLogger("dev.audioengine.backend.vulkan");

    VulkanBackend(VulkanContext ctx) {
        this.ctx = ctx;
        CommandQueue q = null;
        try {
            q = new CommandQueue(ctx);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
        this.queue = q;
        this.pipelines = new Pipelines(ctx);
        this.transfers = new Transfers(ctx, queue);
    }

    @Override
    public String registryName() {
        return "Vulkan";
    }

    @Override
    public DeviceInfo device() {
        return ctx.info;
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return VulkanBackendProvider.VERIFIED;
    }

    @Override
    public boolean supportsOp(Tensor node) {
        return VulkanKernels.supports(node, ctx);
    }

    /** Whether the Khronos validation layer is active on this backend's instance. */
    boolean validationEnabled() {
        return ctx.validation != null;
    }

    /** The validation layer's warnings and errors since open (empty when the layer is off). */
    public List<String> validationMessages() {
        return ctx.validation == null ? List.of() : ctx.validation.messages();
    }

    VulkanContext context() {
        return ctx;
    }

    @Override
    public synchronized DeviceBuffer allocate(long bytes) {
        ensureOpen();
        VulkanBuffer b = VulkanBuffer.create(ctx, bytes, ctx.deviceMemoryType, ctx.deviceMemoryMapped, this::forget);
        buffers.add(b);
        return b;
    }

    private synchronized void forget(VulkanBuffer b) {
        buffers.remove(b);
    }

    @Override
    public void upload(DeviceBuffer dst, long dstOffset, MemorySegment src) {
        ensureOpen();
        transfers.upload(vulkan(dst), dstOffset, src);
    }

    @Override
    public void download(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        ensureOpen();
        transfers.download(vulkan(src), srcOffset, dst);
    }

    private static VulkanBuffer vulkan(DeviceBuffer b) {
        if (b instanceof VulkanBuffer v) return v;
        throw new IllegalArgumentException("not a Vulkan buffer: " + b);
    }

    @Override
    public synchronized Executable compile(List<Tensor> nodes, TensorPlacement placement) {
        ensureOpen();
        Operands operands = new Operands(placement, ctx);
        List<Dispatch> dispatches = new ArrayList<>();
        for (Tensor n : nodes) dispatches.addAll(VulkanKernels.plan(n, operands, ctx));
        VulkanExecutable e = new VulkanExecutable(ctx, queue, pipelines, dispatches);
        executables.add(e);
        reportValidation();
        return new Executable() {
            @Override
            public void run() {
                e.run();
                if (ctx.validation != null) reportValidation();
            }

            @Override
            public void close() {
                synchronized (VulkanBackend.this) {
                    if (executables.remove(e)) e.close();
                }
            }
        };
    }

    /** Logs the validation layer's messages that arrived since the last report (vulkan.validation=on|auto). */
    private synchronized void reportValidation() {
        List<String> all = validationMessages();
        for (int i = reportedMessages; i < all.size(); i++)
            LOG.log(System.Logger.Level.WARNING, "Vulkan validation " + all.get(i));
        reportedMessages = all.size();
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("the Vulkan backend is closed");
    }

    /** Queue submissions so far: one per run of a compiled segment, one per staging copy. */
    long submits() {
        return queue.submits();
    }

    /** Number of live buffers and executables (for the resource test). */
    synchronized int liveObjects() {
        return buffers.size() + executables.size();
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            ctx.api.check("vkDeviceWaitIdle", ctx.device);
        } finally {
            for (VulkanExecutable e : List.copyOf(executables)) e.close();
            executables.clear();
            for (VulkanBuffer b : List.copyOf(buffers)) b.close();
            transfers.close();
            pipelines.close();
            queue.close();
            ctx.close();
            reportValidation();
        }
    }
}
