package dev.audioengine.gpu.runtime;

import java.lang.foreign.MemorySegment;

/**
 * Uploads through two page-locked halves: while the copy engine reads one half, the CPU fills the
 * other, which uploads faster than the driver's pageable path. Downloads stay on the pageable path,
 * which measured faster than the same double buffering (figures and command: docs/PERFORMANCE-cuda.md,
 * "Host-device transfers"). Small transfers skip it: the extra host copy would cost more than it saves. Owned by one backend, used under its lock.
 */
public final class PinnedStaging implements AutoCloseable {
    /** Below this, a plain pageable copy has less overhead. */
    public static final long MIN_BYTES = 256 * 1024;

    private final GpuRuntime api;
    private final MemorySegment[] halves = new MemorySegment[2];
    private final MemorySegment[] done = new MemorySegment[2];
    private final long half;

    public PinnedStaging(GpuRuntime api, long halfBytes) {
        this.api = api;
        this.half = halfBytes;
        try {
            for (int i = 0; i < 2; i++) {
                halves[i] = api.hostAlloc(halfBytes);
                done[i] = api.createEvent();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    public void upload(long dst, MemorySegment src, MemorySegment stream) {
        long n = src.byteSize();
        int k = 0;
        for (long off = 0; off < n; off += half, k ^= 1) {
            long len = Math.min(half, n - off);
            api.synchronizeEvent(done[k]); // this half's previous DMA has finished reading it
            MemorySegment.copy(src, off, halves[k], 0, len);
            api.copyHtoDAsync(dst + off, halves[k], len, stream);
            api.record(done[k], stream);
        }
        api.synchronize(stream);
    }

    @Override
    public void close() {
        for (int i = 0; i < 2; i++) {
            if (done[i] != null) api.destroyEvent(done[i]);
            if (halves[i] != null) api.hostFree(halves[i]);
            done[i] = null;
            halves[i] = null;
        }
    }
}
