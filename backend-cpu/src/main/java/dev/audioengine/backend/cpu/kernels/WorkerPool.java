package dev.audioengine.backend.cpu.kernels;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.function.IntConsumer;

/**
 * The backend's worker threads ({@code --threads}). {@link #parallelRanges} splits [0, n) into at
 * most one chunk per thread: the calling thread runs the first chunk itself and the pool's
 * {@code threads - 1} workers the others, so a split over two threads costs one hand-off, not
 * the two (to a worker, then from it to another) of a task submitted whole. A chunk no worker
 * has started yet when the caller is done with its own is taken back and run by the caller
 * (ForkJoinTask's join un-pushes it), so on a loaded machine a split degrades to a serial run
 * instead of waiting for a worker to be scheduled.
 * <p>
 * {@link #limitedTo} gives a view that splits over fewer threads (down to 1: inline on the caller)
 * on the same workers: the backend hands each op the view its work calls for ({@code OpThreads}).
 * Chunk boundaries depend only on n and the view's thread count, never on timing, so results are
 * the same in every run.
 */
public final class WorkerPool implements AutoCloseable {
    /** ForkJoinPool's limit on parallelism; the backend clamps far below it (to the processors). */
    public static final int MAX_THREADS = 0x7fff;

    private final int threads;
    private final ForkJoinPool workers;
    private final boolean owner;

    public WorkerPool(int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("a worker pool needs 1 to " + MAX_THREADS + " threads, got " + threads);
        }
        this.threads = threads;
        this.workers = threads == 1 ? null : new ForkJoinPool(threads - 1);
        this.owner = true;
    }

    private WorkerPool(int threads, ForkJoinPool workers) {
        this.threads = threads;
        this.workers = workers;
        this.owner = false;
    }

    public int threads() { return threads; }

    /** Worker threads started so far: the pool starts one only when a split first hands it work. */
    public int startedWorkers() { return workers == null ? 0 : workers.getPoolSize(); }

    /** This pool's workers split over at most {@code n} threads (at least 1; closing the view does nothing). */
    public WorkerPool limitedTo(int n) {
        int t = Math.max(1, Math.min(threads, n));
        return t == threads && !owner ? this : new WorkerPool(t, t == 1 ? null : workers);
    }

    /** Calls {@code body} for every i in [0, n), split over the workers; returns when all are done. */
    public void parallelFor(int n, IntConsumer body) {
        parallelRanges(n, (from, to) -> { for (int i = from; i < to; i++) body.accept(i); });
    }

    /** Calls {@code body(from, to)} for contiguous chunks covering [0, n). */
    public void parallelRanges(int n, RangeBody body) {
        if (n <= 0) return;
        int chunks = Math.min(threads, n);
        if (workers == null || chunks == 1) {
            body.run(0, n);
            return;
        }
        ForkJoinTask<?>[] others = new ForkJoinTask<?>[chunks - 1];
        for (int c = 1; c < chunks; c++) {
            int from = (int) ((long) n * c / chunks), to = (int) ((long) n * (c + 1) / chunks);
            others[c - 1] = workers.submit(() -> body.run(from, to));
        }
        Throwable failure = null;
        try {
            body.run(0, (int) ((long) n / chunks));
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        // newest first: a chunk still queued is on top and the caller runs it itself; all finish before any error is thrown (they write into shared buffers)
        for (int i = others.length - 1; i >= 0; i--) {
            try {
                others[i].join();
            } catch (RuntimeException | Error e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        if (failure instanceof RuntimeException r) throw r;
        if (failure instanceof Error e) throw e;
    }

    @FunctionalInterface
    public interface RangeBody {
        void run(int from, int to);
    }

    @Override
    public void close() {
        if (owner && workers != null) workers.shutdownNow();
    }
}
