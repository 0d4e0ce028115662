package dev.audioengine.backend.hip;

import dev.audioengine.api.spi.DeviceBuffer;

import java.util.function.Consumer;

/** Device memory from hipMalloc; {@link #close()} frees it once (the owning backend frees leftovers when it closes). */
final class HipBuffer implements DeviceBuffer {
    private final long address;
    private final long bytes;
    private final Consumer<HipBuffer> free;
    private boolean closed;

    HipBuffer(long address, long bytes, Consumer<HipBuffer> free) {
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

    @Override public String toString() { return "HipBuffer[0x" + Long.toHexString(address) + ", " + bytes + " bytes]"; }
}
