package dev.audioengine.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The memory-bandwidth bound for weight-streaming kernels: GB/s of a plain streaming read (a
 * vector sum over eight independent streams per thread) over a buffer 8x the last-level cache, split
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
        for (long i = 0; i < bytes; i += 4)
            data.set(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, (i & 255) * 0.5f + 1f);
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "stream-read");
            t.setDaemon(true);
            return t;
        });
    }

    long bytes() {
        return data.byteSize();
    }

    /** One full read of the buffer, split over the threads. */
    void pass() {
        long floats = data.byteSize() / 4;
        List<Future<Float>> parts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long from = floats * t / threads / S.length() * S.length(),
                    to = floats * (t + 1) / threads / S.length() * S.length();
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

    /**
     * Sum of floats [from, to): eight equal parts read side by side, one accumulator each. Eight
     * independent streams read faster than one on the CPUs measured (docs/PERFORMANCE-cpu.md), so the
     * bound is what the best read pattern reaches, not what one sequential pass does.
     */
    private float sum(long from, long to) {
        int l = S.length();
        long part = (to - from) / 8 / l * l;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        for (long i = from; i < from + part; i += l) {
            a0 = a0.add(load(i));
            a1 = a1.add(load(i + part));
            a2 = a2.add(load(i + 2 * part));
            a3 = a3.add(load(i + 3 * part));
            a4 = a4.add(load(i + 4 * part));
            a5 = a5.add(load(i + 5 * part));
            a6 = a6.add(load(i + 6 * part));
            a7 = a7.add(load(i + 7 * part));
        }
        for (long i = from + 8 * part; i + l <= to; i += l) a0 = a0.add(load(i));
        return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(a6).add(a7).reduceLanes(VectorOperators.ADD);
    }

    private FloatVector load(long floatIndex) {
        return FloatVector.fromMemorySegment(S, data, floatIndex * 4, ByteOrder.nativeOrder());
    }

    @Override
    public void close() {
        pool.shutdownNow();
        arena.close();
    }
}
