package dev.audioengine.api.spi;

import dev.audioengine.api.graph.Tensor;

/**
 * Where the engine's memory plan put each tensor on one backend. Views resolve to their
 * storage root's buffer; {@link #byteOffset} already includes the view's element offset.
 */
public interface TensorPlacement {
    DeviceBuffer buffer(Tensor t);

    /** Byte offset of {@code t}'s first element inside {@link #buffer}. */
    long byteOffset(Tensor t);
}
