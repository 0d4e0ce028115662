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

    /** Allocates a persistent tensor on {@code backend} (its contents start undefined: zero or upload it). */
    public static PersistentTensor allocate(Backend backend, String name, DType dtype, Shape shape) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("a persistent tensor needs a name");
        if (dtype.isQuantized())
            throw new IllegalArgumentException("persistent tensor '" + name + "' of " + dtype + ": plain dtypes only");
        return new PersistentTensor(backend, name, dtype, shape);
    }

    public String name() {
        return name;
    }

    public DType dtype() {
        return dtype;
    }

    public Shape shape() {
        return shape;
    }

    /** The backend whose memory holds it. */
    public Backend backend() {
        return backend;
    }

    public long byteSize() {
        return dtype.bytesFor(shape.elements());
    }

    /** Replaces the contents with {@code value} (same dtype and shape). */
    public void upload(HostTensor value) {
        ensureOpen();
        if (value.dtype() != dtype || !value.shape().equals(shape)) {
            throw new IllegalArgumentException("persistent tensor '" + name + "' is " + dtype + " " + shape + ", got "
                    + value.dtype() + " " + value.shape());
        }
        backend.upload(buffer, 0, value.data());
    }

    /** Sets every element to zero (all-zero bytes: 0.0 in every float type, 0 in I32). */
    public void zero() {
        ensureOpen();
        try (HostTensor zeros = HostTensor.allocate(dtype, shape)) {
            backend.upload(buffer, 0, zeros.data());
        }
    }

    /** A host copy of the contents; the caller closes it. */
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

    /** Copies the contents into {@code dst} (same dtype and shape). */
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
