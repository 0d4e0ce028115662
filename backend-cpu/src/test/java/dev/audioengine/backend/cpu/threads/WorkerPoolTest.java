package dev.audioengine.backend.cpu.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The pool's contract: every index exactly once in chunks fixed by n and the thread count, failures thrown
 * after every chunk has finished, a second caller or a nested split run inline on its own thread, and no
 * worker thread left running after close.
 */
class WorkerPoolTest {
    @Test
    void everyIndexRunsOnceInChunksThatDependOnlyOnNAndThreads() {
        for (int threads : new int[] {1, 2, 3, 5}) {
            try (WorkerPool pool = new WorkerPool(threads)) {
                for (int n : new int[] {1, 2, 3, 7, 64, 1001}) {
                    for (int repeat = 0; repeat < 50; repeat++) {
                        AtomicIntegerArray hits = new AtomicIntegerArray(n);
                        List<int[]> ranges = java.util.Collections.synchronizedList(new ArrayList<>());
                        pool.parallelRanges(n, (from, to) -> {
                            ranges.add(new int[] {from, to});
                            for (int i = from; i < to; i++) hits.incrementAndGet(i);
                        });
                        for (int i = 0; i < n; i++)
                            assertThat(hits.get(i))
                                    .as("index %d of %d on %d threads", i, n, threads)
                                    .isEqualTo(1);
                        int chunks = Math.min(threads, n);
                        assertThat(ranges).hasSize(chunks);
                        Set<Integer> starts = ConcurrentHashMap.newKeySet();
                        ranges.forEach(r -> starts.add(r[0]));
                        for (int c = 0; c < chunks; c++) assertThat(starts).contains((int) ((long) n * c / chunks));
                    }
                }
            }
        }
    }

    @Test
    void aFailingChunkIsThrownAfterTheOthersFinishAndThePoolStaysUsable() {
        try (WorkerPool pool = new WorkerPool(3)) {
            for (int failing = 0; failing < 3; failing++) {
                int bad = failing;
                AtomicIntegerArray done = new AtomicIntegerArray(3);
                assertThatThrownBy(() -> pool.parallelFor(3, c -> {
                            if (c == bad) throw new IllegalStateException("chunk " + c);
                            sleep(5);
                            done.set(c, 1);
                        }))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage("chunk " + bad);
                for (int c = 0; c < 3; c++)
                    if (c != bad)
                        assertThat(done.get(c))
                                .as("chunk %d finished before the throw", c)
                                .isEqualTo(1);
            }
            AtomicIntegerArray hits = new AtomicIntegerArray(10);
            pool.parallelFor(10, hits::incrementAndGet);
            for (int i = 0; i < 10; i++) assertThat(hits.get(i)).isEqualTo(1);
        }
    }

    @Test
    void twoFailingChunksThrowOneWithTheOtherSuppressed() {
        try (WorkerPool pool = new WorkerPool(2)) {
            assertThatThrownBy(() -> pool.parallelFor(2, c -> {
                        throw new IllegalArgumentException("chunk " + c);
                    }))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
        }
    }

    @Test
    void aSplitInsideAChunkRunsInlineInsteadOfDeadlocking() {
        try (WorkerPool pool = new WorkerPool(2)) {
            AtomicIntegerArray hits = new AtomicIntegerArray(2 * 8);
            pool.parallelFor(2, outer -> pool.parallelFor(8, inner -> hits.incrementAndGet(outer * 8 + inner)));
            for (int i = 0; i < 16; i++) assertThat(hits.get(i)).isEqualTo(1);
        }
    }

    @Test
    void callersOnSeveralThreadsAllGetTheirWorkDone() throws Exception {
        try (WorkerPool pool = new WorkerPool(2)) {
            int callers = 4, n = 257;
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < callers; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int round = 0; round < 300; round++) {
                            AtomicIntegerArray hits = new AtomicIntegerArray(n);
                            pool.parallelFor(n, hits::incrementAndGet);
                            for (int i = 0; i < n; i++)
                                if (hits.get(i) != 1)
                                    throw new AssertionError("index " + i + " ran " + hits.get(i) + " times");
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            start.countDown();
            for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(failure.get()).isNull();
            for (Thread t : threads) assertThat(t.isAlive()).isFalse();
        }
    }

    @Test
    void workersStartOnFirstSplitAndEndWithClose() throws Exception {
        Set<Thread> before = liveWorkers();
        WorkerPool pool = new WorkerPool(3);
        assertThat(pool.startedWorkers()).isZero();
        pool.limitedTo(1).parallelFor(100, i -> {});
        assertThat(pool.startedWorkers())
                .as("a one-thread view hands nothing to the workers")
                .isZero();
        pool.limitedTo(2).parallelFor(100, i -> {});
        assertThat(pool.startedWorkers()).isEqualTo(1);
        pool.parallelFor(100, i -> {});
        assertThat(pool.startedWorkers()).isEqualTo(2);
        Set<Thread> workers = liveWorkers();
        workers.removeAll(before);
        assertThat(workers).hasSize(2);
        sleep(5); // past the spin: the workers park
        pool.close();
        for (Thread t : workers) {
            t.join(5_000);
            assertThat(t.isAlive()).as(t.getName() + " after close").isFalse();
        }
    }

    private static Set<Thread> liveWorkers() {
        Set<Thread> live = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().startsWith("audioengine-cpu-") && t.isAlive()) live.add(t);
        return live;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
