package dev.audioengine.api.exec;

import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;

/**
 * A tensor that lives in one backend's memory across runs: recurrent state, a KV cache, a
 * streaming convolution's history. Graphs name it with {@code GraphBuilder.state(name, ...)};
 * {@code AudioEngine.compile(graph, states...)} binds it, and any number of graphs of that
 * engine may share it (a decoder's prefill, cross-attention and step graphs all write and read
 * the same caches). The engine never uploads it, never plans it into an arena and never copies
 * it to the host during a run; {@link #upload}, {@link #download} and {@link #zero} are for
 * tests and resets. The caller owns it: close it before (or with) the engine.
 * <p>
 * Not thread-safe: the graphs that share it must run one at a time.
 */
public final class PersistentTensor implements AutoCloseable {
    private final Backend backend;
    private final String name;
    private final DType dtype;
    private final Shape shape;
    private final DeviceBuffer buffer;
    private boolean closed;

    private PersistentTensor(Backend backend, String name, DType dtype, Shape shape) {
        this.backend = backend;
        this.name = name;
        this.dtype = dtype;
        this.shape = shape;
        this.buffer = backend.allocate(Math.max(1, dtype.bytesFor(shape.elements())));
    }

    /**
     * Allocates a persistent tensor on {@code backend} (its contents start undefined: zero or upload it).
     * {@code AudioEngine.state(...)} is the usual way, which zeroes it.
     *
     * @param backend the backend whose memory holds it; graphs that use it must be compiled for that backend
     * @param name what graph state leaves bind to; not blank
     * @param dtype a plain dtype (F32 in practice, since writes take F32)
     * @param shape the shape; a state leaf binds only to an identical one
     * @return the tensor, owned by the caller, who closes it before the backend
     * @throws IllegalArgumentException if the name is blank or the dtype quantized
     * @throws dev.audioengine.api.spi.OutOfDeviceMemoryException if the device has no room
     */
    public static PersistentTensor allocate(Backend backend, String name, DType dtype, Shape shape) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("a persistent tensor needs a name");
        if (dtype.isQuantized())
            throw new IllegalArgumentException("persistent tensor '" + name + "' of " + dtype + ": plain dtypes only");
        return new PersistentTensor(backend, name, dtype, shape);
    }

    /**
     * The name graph state leaves bind by.
     *
     * @return the name given at allocation
     */
    public String name() {
        return name;
    }

    /**
     * The element type.
     *
     * @return a plain (not quantized) dtype
     */
    public DType dtype() {
        return dtype;
    }

    /**
     * The shape a state leaf must have to bind to this tensor.
     *
     * @return the shape given at allocation
     */
    public Shape shape() {
        return shape;
    }

    /**
     * The backend whose memory holds it.
     *
     * @return the backend given at allocation
     */
    public Backend backend() {
        return backend;
    }

    /**
     * The size of the contents.
     *
     * @return bytes of device memory the contents take
     */
    public long byteSize() {
        return dtype.bytesFor(shape.elements());
    }

    /**
     * Replaces the contents with {@code value} (same dtype and shape).
     *
     * @param value the new contents; copied, so the caller may close it afterwards
     * @throws IllegalArgumentException if the dtype or shape differs
     * @throws IllegalStateException if this tensor is closed
     */
    public void upload(HostTensor value) {
        ensureOpen();
        if (value.dtype() != dtype || !value.shape().equals(shape)) {
            throw new IllegalArgumentException("persistent tensor '" + name + "' is " + dtype + " " + shape + ", got "
                    + value.dtype() + " " + value.shape());
        }
        backend.upload(buffer, 0, value.data());
    }

    /**
     * Sets every element to zero (all-zero bytes: 0.0 in every float type, 0 in I32).
     *
     * @throws IllegalStateException if this tensor is closed
     */
    public void zero() {
        ensureOpen();
        // a chunk of zeros uploaded as often as it takes, not a zeroed host copy of the whole tensor: a decoder's KV
        // cache is megabytes, and a one-shot job zeroed (and faulted in) that much host memory once more per cache
        long bytes = byteSize();
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment zeros =
                    dev.audioengine.api.tensor.NativeMemory.zeroed(arena, Math.max(1, Math.min(bytes, ZERO_CHUNK)), 8);
            for (long at = 0; at < bytes; at += zeros.byteSize())
                backend.upload(buffer, at, zeros.asSlice(0, Math.min(zeros.byteSize(), bytes - at)));
        }
    }

    /** Bytes of zeros {@link #zero} uploads at a time. */
    static final long ZERO_CHUNK = 1 << 20;

    /**
     * A host copy of the contents; the caller closes it.
     *
     * @return a new host tensor of this dtype and shape, after all queued work on the backend has finished
     * @throws IllegalStateException if this tensor is closed
     */
    public HostTensor download() {
        HostTensor out = HostTensor.allocate(dtype, shape);
        try {
            download(out);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        return out;
    }

    /**
     * Copies the contents into {@code dst} (same dtype and shape).
     *
     * @param dst a host tensor of this dtype and shape, overwritten; waits for queued work on the backend first
     * @throws IllegalArgumentException if the dtype or shape differs
     * @throws IllegalStateException if this tensor is closed
     */
    public void download(HostTensor dst) {
        ensureOpen();
        if (dst.dtype() != dtype || !dst.shape().equals(shape)) {
            throw new IllegalArgumentException("persistent tensor '" + name + "' is " + dtype + " " + shape + ", got "
                    + dst.dtype() + " " + dst.shape());
        }
        backend.synchronize();
        backend.download(buffer, 0, dst.data());
    }

    DeviceBuffer buffer() {
        ensureOpen();
        return buffer;
    }

    boolean isClosed() {
        return closed;
    }

    void ensureOpen() {
        if (closed) throw new IllegalStateException("persistent tensor '" + name + "' is closed");
    }

    /** Frees the device memory (idempotent); a graph compiled with it can no longer run. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        buffer.close();
    }

    @Override
    public String toString() {
        return "persistent tensor '" + name + "' " + dtype + " " + shape + " on " + backend.registryName();
    }
}
