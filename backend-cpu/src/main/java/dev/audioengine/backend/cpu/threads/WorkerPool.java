package dev.audioengine.backend.cpu.threads;

import java.util.function.IntConsumer;

/**
 * The backend's worker threads ({@code --threads}). {@link #parallelRanges} splits [0, n) into at
 * most one chunk per thread: the calling thread runs the first chunk itself and the pool's
 * {@code threads - 1} workers ({@link SpinningWorkers}) the others. A chunk no worker has started
 * yet when the caller is done with its own is taken back and run by the caller, so on a loaded
 * machine a split degrades to a serial run instead of waiting for a worker to be scheduled. One
 * split at a time: a second thread splitting on the same pool meanwhile, or a split inside a
 * chunk, runs the same chunks one after another on its own thread.
 * <p>
 * {@link #limitedTo} gives a view that splits over fewer threads (down to 1: inline on the caller)
 * on the same workers: the backend hands each op the view its work calls for ({@code OpThreads}).
 * Chunk boundaries depend only on n and the view's thread count, never on timing, so results are
 * the same in every run.
 */
public final class WorkerPool implements AutoCloseable {
    /** A sanity limit; the backend clamps far below it (to the processors). */
    public static final int MAX_THREADS = 0x7fff;

    private final int threads;
    private final SpinningWorkers workers;
    private final boolean owner;

    public WorkerPool(int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("a worker pool needs 1 to " + MAX_THREADS + " threads, got " + threads);
        }
        this.threads = threads;
        this.workers = threads == 1 ? null : new SpinningWorkers(threads - 1);
        this.owner = true;
    }

    private WorkerPool(int threads, SpinningWorkers workers) {
        this.threads = threads;
        this.workers = workers;
        this.owner = false;
    }

    public int threads() {
        return threads;
    }

    /** Worker threads started so far: the pool starts one only when a split first hands it work. */
    public int startedWorkers() {
        return workers == null ? 0 : workers.started();
    }

    /** This pool's workers split over at most {@code n} threads (at least 1; closing the view does nothing). */
    public WorkerPool limitedTo(int n) {
        int t = Math.max(1, Math.min(threads, n));
        return t == threads && !owner ? this : new WorkerPool(t, t == 1 ? null : workers);
    }

    /** Calls {@code body} for every i in [0, n), split over the workers; returns when all are done. */
    public void parallelFor(int n, IntConsumer body) {
        parallelRanges(n, (from, to) -> {
            for (int i = from; i < to; i++) body.accept(i);
        });
    }

    /** Calls {@code body(from, to)} for contiguous chunks covering [0, n). */
    public void parallelRanges(int n, RangeBody body) {
        if (n <= 0) return;
        int chunks = Math.min(threads, n);
        if (workers == null || chunks == 1) {
            body.run(0, n);
        } else if (workers.enter()) {
            try {
                workers.split(n, chunks, body);
            } finally {
                workers.leave();
            }
        } else {
            // the workers are busy with another split: the same chunks, one after another on this thread
            for (int c = 0; c < chunks; c++)
                body.run((int) ((long) n * c / chunks), (int) ((long) n * (c + 1) / chunks));
        }
    }

    @FunctionalInterface
    public interface RangeBody {
        void run(int from, int to);
    }

    @Override
    public void close() {
        if (owner && workers != null) workers.close();
    }
}
