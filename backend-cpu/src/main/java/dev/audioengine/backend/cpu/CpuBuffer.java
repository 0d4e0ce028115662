package dev.audioengine.backend.cpu;

import dev.audioengine.api.spi.DeviceBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Native memory owned by its own shared arena (kernels run on several threads). */
final class CpuBuffer implements DeviceBuffer {
    private final Arena arena; // null for a view of memory owned elsewhere (an adopted constant)
    private final MemorySegment segment;
    private final java.util.function.Consumer<CpuBuffer> onClose;
    private boolean closed;

    CpuBuffer(long bytes, java.util.function.Consumer<CpuBuffer> onClose) {
        this.arena = Arena.ofShared();
        this.segment = dev.audioengine.api.tensor.NativeMemory.zeroed(arena, Math.max(1, bytes), 64);
        this.onClose = onClose;
    }

    /** A view of {@code owned}, which its owner frees (after this buffer is closed). */
    CpuBuffer(MemorySegment owned, java.util.function.Consumer<CpuBuffer> onClose) {
        this.arena = null;
        this.segment = owned;
        this.onClose = onClose;
    }

    MemorySegment segment() {
        return segment;
    }

    @Override
    public long byteSize() {
        return segment.byteSize();
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (arena != null) arena.close();
        onClose.accept(this);
    }
}
