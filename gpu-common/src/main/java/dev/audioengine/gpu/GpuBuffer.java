package dev.audioengine.gpu;

import dev.audioengine.api.spi.DeviceBuffer;

import java.util.function.Consumer;

/** Device memory from the vendor runtime; {@link #close()} frees it once (the owning backend frees leftovers when it closes). */
public final class GpuBuffer implements DeviceBuffer {
    private final long address;
    private final long bytes;
    private final Consumer<GpuBuffer> free;
    private boolean closed;

    GpuBuffer(long address, long bytes, Consumer<GpuBuffer> free) {
        this.address = address;
        this.bytes = bytes;
        this.free = free;
    }

    /** The device address; throws once the buffer is closed. */
    public long address() {
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

    @Override public String toString() { return "GpuBuffer[0x" + Long.toHexString(address) + ", " + bytes + " bytes]"; }
}
