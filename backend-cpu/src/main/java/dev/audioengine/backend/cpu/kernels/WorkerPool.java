package dev.audioengine.backend.cpu.kernels;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.function.IntConsumer;

/**
 * The backend's worker threads ({@code --threads}). {@link #parallelFor} splits [0, n) into at
 * most one chunk per thread; small loops run inline on the caller.
 */
public final class WorkerPool implements AutoCloseable {
    private final int threads;
    private final ForkJoinPool pool;

    public WorkerPool(int threads) {
        this.threads = Math.max(1, threads);
        this.pool = this.threads == 1 ? null : new ForkJoinPool(this.threads);
    }

    public int threads() { return threads; }

    /** Calls {@code body} for every i in [0, n), split over the workers; returns when all are done. */
    public void parallelFor(int n, IntConsumer body) {
        parallelRanges(n, (from, to) -> { for (int i = from; i < to; i++) body.accept(i); });
    }

    /** Calls {@code body(from, to)} for contiguous chunks covering [0, n). */
    public void parallelRanges(int n, RangeBody body) {
        if (n <= 0) return;
        int chunks = Math.min(threads, n);
        if (pool == null || chunks == 1) {
            body.run(0, n);
            return;
        }
        pool.invoke(new RecursiveAction() {
            @Override
            protected void compute() {
                RecursiveAction[] parts = new RecursiveAction[chunks];
                for (int c = 0; c < chunks; c++) {
                    int from = (int) ((long) n * c / chunks), to = (int) ((long) n * (c + 1) / chunks);
                    parts[c] = new RecursiveAction() {
                        @Override protected void compute() { body.run(from, to); }
                    };
                }
                invokeAll(parts);
            }
        });
    }

    @FunctionalInterface
    public interface RangeBody {
        void run(int from, int to);
    }

    @Override
    public void close() {
        if (pool != null) pool.shutdownNow();
    }
}
