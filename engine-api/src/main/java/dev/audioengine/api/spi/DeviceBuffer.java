package dev.audioengine.api.spi;

/** Memory owned by one backend (device memory on a GPU, native memory on the CPU). */
public interface DeviceBuffer extends AutoCloseable {
    /**
     * The buffer's size.
     *
     * @return the bytes allocated, as asked of {@link Backend#allocate} (or of the adopted host memory)
     */
    long byteSize();

    /** Frees the memory; an adopted host constant's memory is left to its owner. */
    @Override
    void close();
}
