package dev.audioengine.server.serving;

import dev.audioengine.server.http.ApiError;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One model's bounded worker pool: at most {@code workers} requests run on the model at once, at most {@code queue}
 * wait, and a wait is at most {@code queueTimeout}; past either bound the request is refused with 503 and Retry-After,
 * never left hanging. Model work runs on these platform threads rather than on the server's virtual request threads,
 * so native calls into a backend never pin the carriers that serve other connections. Threads are made as needed up
 * to {@code workers} and then kept, so the count stays flat under load.
 */
public final class ModelPool implements AutoCloseable {
    /** What a refused client is told to wait before trying again. */
    public static final int RETRY_AFTER_SECONDS = 1;

    private final String model;
    private final ThreadPoolExecutor executor;
    private final Duration queueTimeout;
    private final int queue;

    ModelPool(String model, int workers, int queue, Duration queueTimeout) {
        this.model = model;
        this.queue = queue;
        this.queueTimeout = queueTimeout;
        BlockingQueue<Runnable> waiting = queue == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(queue);
        AtomicInteger n = new AtomicInteger();
        executor = new ThreadPoolExecutor(
                workers,
                workers,
                0,
                TimeUnit.SECONDS,
                waiting,
                r -> {
                    Thread t = new Thread(r, "audioengine-" + model + "-" + n.incrementAndGet());
                    t.setDaemon(true); // shutdown is explicit (close); a stray worker must not hold the JVM
                    return t;
                },
                new ThreadPoolExecutor.AbortPolicy());
    }

    /**
     * Starts {@code work} on a worker and returns once it runs (so a caller may still answer with an HTTP error when it
     * is refused); the caller then waits for the future. Refused (503): the queue is full, or the wait passed the
     * timeout, or the pool is closing.
     */
    public <T> Future<T> start(Callable<T> work) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        FutureTask<T> task = new FutureTask<>(() -> {
            started.countDown();
            return work.call();
        });
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            if (executor.isShutdown())
                throw ApiError.unavailable("shutting_down", "the server is shutting down", RETRY_AFTER_SECONDS);
            throw ApiError.unavailable(
                    "queue_full",
                    model + " is busy: " + executor.getActiveCount() + " requests running and " + queue
                            + " waiting (--max-concurrent, --queue); try again",
                    RETRY_AFTER_SECONDS);
        }
        if (!started.await(queueTimeout.toNanos(), TimeUnit.NANOSECONDS) && task.cancel(false)) {
            executor.remove(task); // a cancelled task must not keep its queue slot
            throw ApiError.unavailable(
                    "queue_timeout",
                    model + " is busy: the request waited " + queueTimeout.toMillis()
                            + " ms in the queue (--queue-timeout-s); try again",
                    RETRY_AFTER_SECONDS);
        }
        return task;
    }

    /**
     * The result of work {@link #start} started, waiting for its end however long that takes, even when interrupted:
     * the caller's resources (the open audio) are in use until then, and the work is bounded by its audio. The work's
     * exception is rethrown as it was thrown.
     */
    public static <T> T result(Future<T> work) throws Exception {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return work.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    switch (e.getCause()) {
                        case Exception x -> throw x;
                        case Error x -> throw x;
                        default -> throw e;
                    }
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Requests waiting for a worker. */
    int queued() {
        return executor.getQueue().size();
    }

    /** Requests running on the model. */
    public int running() {
        return executor.getActiveCount();
    }

    /** Worker threads alive. */
    public int threads() {
        return executor.getPoolSize();
    }

    /** No new work; waits up to {@code timeout} for the work already started or queued. */
    boolean drain(Duration timeout) throws InterruptedException {
        executor.shutdown();
        return executor.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
