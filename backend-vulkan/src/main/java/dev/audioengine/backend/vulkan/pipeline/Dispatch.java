package dev.audioengine.backend.vulkan.pipeline;

import dev.audioengine.backend.vulkan.buffer.VulkanBuffer;
import java.util.List;

/**
 * One recorded compute dispatch: a shader specialized by {@code spec} (index 0 is the workgroup
 * size), its storage buffers in binding order, its push constants (32-bit words) and its
 * workgroup counts.
 */
public record Dispatch(
        Shader shader, int[] spec, List<Binding> bindings, int[] push, int groupsX, int groupsY, int groupsZ) {

    /** A buffer range bound to one binding. */
    public record Binding(VulkanBuffer buffer, long offset, long range) {}

    /** A dispatch with one layer of workgroups in z. */
    public Dispatch(Shader shader, int[] spec, List<Binding> bindings, int[] push, int groupsX, int groupsY) {
        this(shader, spec, bindings, push, groupsX, groupsY, 1);
    }

    public Dispatch {
        if (bindings.size() != shader.bindings) {
            throw new IllegalArgumentException(
                    shader + " binds " + shader.bindings + " buffers, got " + bindings.size());
        }
        if (push.length * 4 > Pipelines.PUSH_CONSTANT_BYTES)
            throw new IllegalArgumentException(shader + ": push constants over 128 bytes");
    }
}
