package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.vulkan.buffer.VulkanBuffer;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;

/**
 * Turns placed tensors into shader arguments. Each tensor binds its storage root's bytes,
 * starting at the nearest offset the device allows (minStorageBufferOffsetAlignment); the rest
 * of the offset, and the view's own element offset, go to the shader as an element index.
 */
public final class Operands {
    private final TensorPlacement placement;
    private final VulkanContext ctx;

    public Operands(TensorPlacement placement, VulkanContext ctx) {
        this.placement = placement;
        this.ctx = ctx;
    }

    private long rootStart(Tensor t) {
        return placement.byteOffset(t) - t.dtype().bytesFor(t.offset());
    }

    private long alignedStart(Tensor t) {
        long align = Math.max(4, ctx.limits.storageOffsetAlignment());
        long start = rootStart(t);
        return start - start % align;
    }

    Dispatch.Binding binding(Tensor t) {
        DeviceBuffer b = placement.buffer(t);
        if (!(b instanceof VulkanBuffer vb))
            throw new IllegalArgumentException("not a Vulkan buffer: " + b + " for " + t);
        long from = alignedStart(t);
        long bytes = rootStart(t) - from + t.storageBytes();
        long range = Math.min((bytes + 3) & ~3L, vb.capacity - from);
        if (range > ctx.limits.maxStorageBufferRange()) {
            throw new IllegalStateException(t + " spans " + range + " bytes, more than " + ctx.info.name()
                    + " can bind (maxStorageBufferRange " + ctx.limits.maxStorageBufferRange() + ")");
        }
        return new Dispatch.Binding(vb, from, Math.max(4, range));
    }

    /** Index of t's first element inside its binding, in elements (block formats: elements of whole blocks). */
    int base(Tensor t) {
        long rem = rootStart(t) - alignedStart(t);
        DType d = t.dtype();
        if (rem % d.blockBytes() != 0) {
            throw new IllegalStateException(t + " starts " + rem + " bytes into a binding, not a whole number of " + d
                    + " blocks; the memory plan should align tensors to 256 bytes");
        }
        return Math.toIntExact(rem / d.blockBytes() * d.blockSize() + t.offset());
    }
}
