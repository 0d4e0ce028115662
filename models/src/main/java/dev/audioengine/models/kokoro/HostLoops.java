package dev.audioengine.models.kokoro;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

/**
 * Index ranges split over the engine's host threads ({@code AudioEngine.hostThreads()}), for the synthesis work
 * that runs on the host between graphs. On a GPU that work is what remains of a sentence's time: on one core the
 * harmonic source and its spectrum took longer than the device's whole synthesis (docs/KOKORO.md).
 * Every index is computed exactly as in a plain loop, so results do not depend on the thread count.
 */
final class HostLoops implements AutoCloseable {
    /** A range body: indices [from, to). */
    interface Body {
        void run(int from, int to);
    }

    private final int threads;
    private final ForkJoinPool pool; // null with one thread: everything runs on the caller

    HostLoops(int threads) {
        if (threads < 1) throw new IllegalArgumentException(threads + " threads");
        this.threads = threads;
        this.pool = threads > 1 ? new ForkJoinPool(threads) : null;
    }

    /** {@code body} over [0, n) in pieces of at least {@code grain} indices, on up to the engine's threads; returns when all are done. */
    void forRange(int n, int grain, Body body) {
        int pieces = (int) Math.min((long) threads * 4, Math.max(1, ((long) n + grain - 1) / grain));
        if (pool == null || pieces <= 1) {
            body.run(0, n);
            return;
        }
        pool.submit(() -> IntStream.range(0, pieces)
                        .parallel()
                        .forEach(p -> body.run((int) ((long) n * p / pieces), (int) ((long) n * (p + 1) / pieces))))
                .join();
    }

    /**
     * {@code work} on the host threads while the caller goes on (the caller's own work must not use the engine's
     * objects that {@code work} uses); with one thread it runs here, before this returns.
     */
    <T> Future<T> submit(Callable<T> work) {
        if (pool != null) return pool.submit(work);
        try {
            return CompletableFuture.completedFuture(work.call());
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The result of {@link #submit}, its failure rethrown as it was (unchecked) or wrapped. */
    static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the host threads worked", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        if (pool != null) pool.shutdown();
    }
}
