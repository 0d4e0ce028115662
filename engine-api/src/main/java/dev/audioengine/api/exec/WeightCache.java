package dev.audioengine.api.exec;

import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.tensor.HostTensor;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Weights uploaded once per backend and shared by every graph of an engine, keyed by the
 * identity of the HostTensor that holds them; read in place where the backend adopts host memory
 * ({@link Backend#adoptHostConstant}: the CPU), so no second copy exists. Owned and closed by the engine.
 */
public final class WeightCache implements AutoCloseable {
    private final Map<Backend, Map<HostTensor, DeviceBuffer>> buffers = new IdentityHashMap<>();
    private long uploadedBytes;

    /** An empty cache; the engine makes one and closes it when it closes. */
    public WeightCache() {}

    /**
     * The buffer holding a weight on a backend, uploading (or adopting) it on first use.
     *
     * @param backend the backend that reads it
     * @param weight the weight; its identity is the key, so the same object used by several graphs is uploaded
     *     once. The caller keeps it open while the cache may adopt or upload it
     * @return the buffer, owned by this cache; never close it
     * @throws dev.audioengine.api.spi.OutOfDeviceMemoryException if the device has no room
     */
    public synchronized DeviceBuffer get(Backend backend, HostTensor weight) {
        Map<HostTensor, DeviceBuffer> perBackend = buffers.computeIfAbsent(backend, b -> new IdentityHashMap<>());
        DeviceBuffer buf = perBackend.get(weight);
        if (buf == null) {
            buf = backend.adoptHostConstant(weight.data());
            if (buf == null) {
                buf = backend.allocate(weight.byteSize());
                backend.upload(buf, 0, weight.data());
                uploadedBytes += weight.byteSize();
            }
            perBackend.put(weight, buf);
        }
        return buf;
    }

    /**
     * Bytes copied to backends (weights a backend adopted in place are not counted).
     *
     * @return the total over every backend since the cache was made
     */
    public synchronized long uploadedBytes() {
        return uploadedBytes;
    }

    /** Frees every buffer; the host tensors the weights came from are left to their owners. */
    @Override
    public synchronized void close() {
        for (Map<HostTensor, DeviceBuffer> m : buffers.values()) for (DeviceBuffer b : m.values()) b.close();
        buffers.clear();
    }
}
