package dev.audioengine.api.spi;

import dev.audioengine.api.graph.Tensor;

/**
 * Where the engine's memory plan put each tensor on one backend. Views resolve to their
 * storage root's buffer; {@link #byteOffset} already includes the view's element offset.
 */
public interface TensorPlacement {
    /**
     * The buffer that holds a tensor's storage on this backend.
     *
     * @param t an input or output of a node being compiled (a view resolves to its root)
     * @return the buffer, owned by the engine; valid for the life of the compiled graph
     * @throws IllegalStateException if the plan put nothing for {@code t} on this backend (an engine bug)
     */
    DeviceBuffer buffer(Tensor t);

    /**
     * Byte offset of {@code t}'s first element inside {@link #buffer}.
     *
     * @param t an input or output of a node being compiled
     * @return the offset in bytes, the view's element offset included; elements beyond the first follow
     *     {@link Tensor#strides()}
     * @throws IllegalStateException if the plan put nothing for {@code t} on this backend
     */
    long byteOffset(Tensor t);
}
