package dev.audioengine.cli.bench;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The memory-bandwidth bound for weight-streaming kernels: GB/s of a plain streaming read (a
 * vector sum with four independent accumulators) over a buffer 8x the last-level cache, split
 * over the same number of threads as the kernel it bounds; timed by the caller, interleaved with
 * the kernel's own runs.
 */
final class StreamRead implements AutoCloseable {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment data;
    private final ExecutorService pool;
    private final int threads;
    private volatile float sink;

    StreamRead(long bytes, int threads) {
        this.threads = threads;
        this.data = arena.allocate(bytes, 64);
        for (long i = 0; i < bytes; i += 4) data.set(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, (i & 255) * 0.5f + 1f);
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "stream-read");
            t.setDaemon(true);
            return t;
        });
    }

    long bytes() { return data.byteSize(); }

    /** One full read of the buffer, split over the threads. */
    void pass() {
        long floats = data.byteSize() / 4;
        List<Future<Float>> parts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long from = floats * t / threads / S.length() * S.length(), to = floats * (t + 1) / threads / S.length() * S.length();
            parts.add(pool.submit(() -> sum(from, to)));
        }
        float total = 0;
        try {
            for (Future<Float> f : parts) total += f.get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("streaming read failed", e);
        }
        sink = total;
    }

    private float sum(long from, long to) {
        FloatVector a = FloatVector.zero(S), b = a, c = a, d = a;
        int l = S.length();
        long i = from;
        for (; i + 4L * l <= to; i += 4L * l) {
            a = a.add(FloatVector.fromMemorySegment(S, data, i * 4, ByteOrder.nativeOrder()));
            b = b.add(FloatVector.fromMemorySegment(S, data, (i + l) * 4, ByteOrder.nativeOrder()));
            c = c.add(FloatVector.fromMemorySegment(S, data, (i + 2L * l) * 4, ByteOrder.nativeOrder()));
            d = d.add(FloatVector.fromMemorySegment(S, data, (i + 3L * l) * 4, ByteOrder.nativeOrder()));
        }
        for (; i < to; i += l) a = a.add(FloatVector.fromMemorySegment(S, data, i * 4, ByteOrder.nativeOrder()));
        return a.add(b).add(c).add(d).reduceLanes(VectorOperators.ADD);
    }

    @Override
    public void close() {
        pool.shutdownNow();
        arena.close();
    }
}
