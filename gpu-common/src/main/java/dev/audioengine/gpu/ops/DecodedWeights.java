package dev.audioengine.gpu.ops;

import dev.audioengine.gpu.runtime.GpuBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * F32 copies of quantized weight constants, kept on the device for as long as a compiled segment uses them, so that
 * products of many rows (a batched decoder step, an encoder's frames) go through the GEMM library instead of
 * decoding the blocks again in every kernel. One copy per constant serves every segment of the backend (a batched
 * decoder compiles a step per width; they share one copy of each weight). A copy is filled by the first run of the
 * first segment that uses it, on the backend's one stream, so after the constant's upload and before any read; a copy
 * costs four bytes per weight value (moonshine-tiny: about 80 MB for its 8-bit decoder and encoder projections).
 * <p>
 * Keyed by the constant's device address, type and shape: a segment holds its constants, so an address cannot be
 * reused by another constant while a segment that made the copy is open. Not thread-safe: the backend binds and
 * closes segments under its own lock.
 */
final class DecodedWeights {
    /** Where a quantized [n, k] weight lives (rowStride in elements) and its type's ordinal. */
    record Key(long address, int dtype, long n, long k, long rowStride) {}

    /** One copy: its buffer, whether its decoding has been enqueued, and how many open segments use it. */
    static final class Copy {
        final Key key;
        final GpuBuffer buffer;
        boolean filled;
        int users;

        private Copy(Key key, GpuBuffer buffer) {
            this.key = key;
            this.buffer = buffer;
        }

        long address() {
            return buffer.address();
        }
    }

    private final LongFunction<GpuBuffer> allocate;
    private final Map<Key, Copy> copies = new HashMap<>();

    DecodedWeights(LongFunction<GpuBuffer> allocate) {
        this.allocate = allocate;
    }

    /** The copy of {@code key}'s weight, made (unfilled) if no open segment has it; the caller releases it. */
    Copy acquire(Key key) {
        Copy c = copies.get(key);
        if (c == null) {
            c = new Copy(key, allocate.apply(Math.multiplyExact(Math.multiplyExact(key.n(), key.k()), 4L)));
            copies.put(key, c);
        }
        c.users++;
        return c;
    }

    /** A segment that acquired {@code c} closes: the copy is freed when no open segment uses it. */
    void release(Copy c) {
        if (--c.users > 0) return;
        copies.remove(c.key);
        c.buffer.close();
    }

    /** Copies currently held (tests, diagnostics). */
    int size() {
        return copies.size();
    }

    /** Bytes held by the copies. */
    long bytes() {
        long sum = 0;
        for (Copy c : copies.values()) sum += c.buffer.byteSize();
        return sum;
    }
}
