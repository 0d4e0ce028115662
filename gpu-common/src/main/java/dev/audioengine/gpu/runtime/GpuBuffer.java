package dev.audioengine.gpu.runtime;

import dev.audioengine.api.spi.DeviceBuffer;
import java.util.function.Consumer;

/** Device memory from the vendor runtime; {@link #close()} frees it once (the owning backend frees leftovers when it closes). */
public final class GpuBuffer implements DeviceBuffer {
    private final long address;
    private final long bytes;
    private final Consumer<GpuBuffer> free;
    private boolean closed;

    /** Owned by the backend that allocated it; {@code free} returns the memory. */
    public GpuBuffer(long address, long bytes, Consumer<GpuBuffer> free) {
        this.address = address;
        this.bytes = bytes;
        this.free = free;
    }

    /** The device address; throws once the buffer is closed. */
    public long address() {
        if (closed) throw new IllegalStateException("device buffer of " + bytes + " bytes is closed");
        return address;
    }

    /** The address even after close (the owner frees it). */
    public long rawAddress() {
        return address;
    }

    /** The device buffer behind {@code b}. */
    public static GpuBuffer of(DeviceBuffer b) {
        if (b instanceof GpuBuffer c) return c;
        throw new IllegalArgumentException("not a GPU buffer: " + b);
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        free.accept(this);
    }

    @Override
    public String toString() {
        return "GpuBuffer[0x" + Long.toHexString(address) + ", " + bytes + " bytes]";
    }
}
