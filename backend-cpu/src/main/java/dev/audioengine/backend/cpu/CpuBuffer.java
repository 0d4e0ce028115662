package dev.audioengine.backend.cpu;

import dev.audioengine.api.spi.DeviceBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Native memory owned by its own shared arena (kernels run on several threads). */
final class CpuBuffer implements DeviceBuffer {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment segment;
    private final java.util.function.Consumer<CpuBuffer> onClose;

    CpuBuffer(long bytes, java.util.function.Consumer<CpuBuffer> onClose) {
        this.segment = arena.allocate(Math.max(1, bytes), 64);
        this.onClose = onClose;
    }

    MemorySegment segment() { return segment; }

    @Override public long byteSize() { return segment.byteSize(); }

    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
            onClose.accept(this);
        }
    }
}
