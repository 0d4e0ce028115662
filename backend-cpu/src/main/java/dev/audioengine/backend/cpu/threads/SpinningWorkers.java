package dev.audioengine.backend.cpu.threads;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The worker threads behind a {@link WorkerPool} and the hand-off of one chunk to each. A worker that has
 * just finished a chunk spins for {@link #SPIN_NANOS} before it parks, so the next split of the same graph
 * run (a GEMM splits once per k slice, an encoder splits op after op) reaches it without a wake-up through
 * the scheduler (slow on a VM, which is what kept a ForkJoinPool from paying off on small shares of work,
 * docs/PERFORMANCE-cpu.md). The price is up to SPIN_NANOS of a core after
 * each split; a run that does not split leaves the workers parked.
 * <p>
 * Each worker owns one slot: IDLE → POSTED (the caller publishes a chunk) → TAKEN (by the worker, or by the
 * caller itself when the worker has not started it: on a loaded machine a split degrades to a serial run
 * instead of waiting for a descheduled thread) → DONE → IDLE. One caller at a time: {@link #enter} fails
 * while another split is in flight (a second thread on the same backend, or a split inside a chunk), and
 * that caller runs the same chunks itself ({@link WorkerPool#parallelRanges}).
 */
final class SpinningWorkers implements AutoCloseable {
    /** How long a worker stays hot after its last chunk before it parks. */
    static final long SPIN_NANOS = 100_000;
    /** The caller's busy-wait on a running chunk (about a millisecond) before it naps between checks instead. */
    private static final int CALLER_SPINS = 1 << 15;
    /** One nap of a caller waiting on a long chunk (the worker does not wake it: a late check costs at most this). */
    private static final long CALLER_NAP_NANOS = 20_000;

    private final Slot[] slots;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile boolean closed;

    SpinningWorkers(int workers) {
        slots = new Slot[workers];
        for (int i = 0; i < workers; i++) slots[i] = new Slot(i + 1);
    }

    int started() {
        int n = 0;
        for (Slot s : slots) if (s.thread != null) n++;
        return n;
    }

    /** Claims the workers for one split; false while another split holds them. */
    boolean enter() {
        return !closed && inFlight.compareAndSet(false, true);
    }

    void leave() {
        inFlight.set(false);
    }

    /** Between {@link #enter} and {@link #leave}: chunk c of {@code chunks} over [0, n) to worker c−1, chunk 0 on the caller. */
    void split(int n, int chunks, WorkerPool.RangeBody body) {
        for (int c = 1; c < chunks; c++)
            slots[c - 1].post(body, (int) ((long) n * c / chunks), (int) ((long) n * (c + 1) / chunks));
        Throwable failure = run(body, 0, (int) ((long) n / chunks));
        // all chunks finish before anything is thrown: they write into shared buffers
        for (int c = chunks - 1; c >= 1; c--) {
            Throwable f = slots[c - 1].finish();
            if (f == null) continue;
            if (failure == null) failure = f;
            else failure.addSuppressed(f);
        }
        if (failure instanceof RuntimeException r) throw r;
        if (failure instanceof Error e) throw e;
    }

    private static Throwable run(WorkerPool.RangeBody body, int from, int to) {
        try {
            body.run(from, to);
            return null;
        } catch (RuntimeException | Error e) {
            return e;
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Slot s : slots) if (s.thread != null) LockSupport.unpark(s.thread);
    }

    private final class Slot implements Runnable {
        private static final int IDLE = 0, POSTED = 1, TAKEN = 2, DONE = 3;
        private final AtomicInteger state = new AtomicInteger(IDLE);
        private final int index;
        private volatile boolean parked;
        private volatile Thread thread; // started by the first post (only the caller in flight writes it)
        // the chunk: written by the caller before state becomes POSTED, read after it; failure written before DONE
        private WorkerPool.RangeBody body;
        private int from, to;
        private Throwable failure;

        Slot(int index) {
            this.index = index;
        }

        void post(WorkerPool.RangeBody body, int from, int to) {
            this.body = body;
            this.from = from;
            this.to = to;
            this.failure = null;
            if (thread == null) {
                thread = Thread.ofPlatform()
                        .daemon()
                        .name("audioengine-cpu-" + index)
                        .unstarted(this);
                thread.start();
            }
            state.set(POSTED);
            if (parked) LockSupport.unpark(thread);
        }

        /** Waits for the chunk posted last (running it here if the worker has not begun) and returns what it threw. */
        Throwable finish() {
            Throwable f;
            if (state.compareAndSet(POSTED, TAKEN)) {
                f = SpinningWorkers.run(body, from, to);
            } else {
                for (int spins = 0; state.get() != DONE; spins++) {
                    if (spins < CALLER_SPINS) Thread.onSpinWait();
                    else LockSupport.parkNanos(this, CALLER_NAP_NANOS);
                }
                f = failure;
            }
            body = null;
            state.set(IDLE);
            return f;
        }

        @Override
        public void run() {
            long hotSince = System.nanoTime();
            while (!closed) {
                if (state.get() == POSTED && state.compareAndSet(POSTED, TAKEN)) {
                    failure = SpinningWorkers.run(body, from, to);
                    state.set(DONE);
                    hotSince = System.nanoTime();
                } else if (System.nanoTime() - hotSince < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    parked = true;
                    // re-checked after announcing: a post between the check above and park() unparks us
                    if (state.get() != POSTED && !closed) LockSupport.park(this);
                    parked = false;
                    hotSince = System.nanoTime();
                }
            }
        }
    }
}
