package dev.audioengine.backend.cuda;

import dev.audioengine.api.spi.DeviceBuffer;

import java.util.function.Consumer;

/** Device memory from cuMemAlloc; {@link #close()} frees it once (the owning backend frees leftovers when it closes). */
final class CudaBuffer implements DeviceBuffer {
    private final long address;
    private final long bytes;
    private final Consumer<CudaBuffer> free;
    private boolean closed;

    CudaBuffer(long address, long bytes, Consumer<CudaBuffer> free) {
        this.address = address;
        this.bytes = bytes;
        this.free = free;
    }

    long address() {
        if (closed) throw new IllegalStateException("device buffer of " + bytes + " bytes is closed");
        return address;
    }

    long rawAddress() { return address; }

    @Override public long byteSize() { return bytes; }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        free.accept(this);
    }

    @Override public String toString() { return "CudaBuffer[0x" + Long.toHexString(address) + ", " + bytes + " bytes]"; }
}
