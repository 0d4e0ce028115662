package dev.audioengine.api.spi;

/** Memory owned by one backend (device memory on a GPU, native memory on the CPU). */
public interface DeviceBuffer extends AutoCloseable {
    long byteSize();

    @Override
    void close();
}
