package dev.audioengine.server.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.server.http.ApiError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bounds of a model's pool: what runs, what waits, what is refused, and that nothing waits forever. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModelPoolTest {
    @Test
    void runsUpToItsWorkersQueuesUpToItsQueueAndRefusesTheRestAtOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ModelPool pool = new ModelPool("m", 2, 1, Duration.ofSeconds(30))) {
            List<Future<Integer>> running = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int n = i;
                running.add(pool.start(() -> {
                    release.await();
                    return n;
                }));
            }
            assertThat(pool.running()).isEqualTo(2);
            // the third waits in the queue (start returns only once it runs, so it is started from another thread)
            Thread queued = Thread.ofVirtual().start(() -> {
                try {
                    assertThat(ModelPool.result(pool.start(() -> 7))).isEqualTo(7);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.queued() < 1 && System.nanoTime() < deadline) Thread.sleep(5);
            assertThat(pool.queued()).isEqualTo(1);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> pool.start(() -> 8)).isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.status()).isEqualTo(503);
                assertThat(e.code()).isEqualTo("queue_full");
                assertThat(e.retryAfterSeconds()).isEqualTo(ModelPool.RETRY_AFTER_SECONDS);
            });
            assertThat((System.nanoTime() - t0) / 1e9)
                    .as("a full queue refuses at once")
                    .isLessThan(1);
            release.countDown();
            assertThat(ModelPool.result(running.get(0)) + ModelPool.result(running.get(1)))
                    .isEqualTo(1);
            queued.join(10_000);
            assertThat(queued.isAlive()).isFalse();
            assertThat(pool.threads()).isEqualTo(2);
        }
    }

    @Test
    void aWaitPastTheTimeoutIsRefusedAndGivesItsQueueSlotBack() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ModelPool pool = new ModelPool("m", 1, 1, Duration.ofMillis(200))) {
            Future<Integer> busy = pool.start(() -> {
                release.await();
                return 1;
            });
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> pool.start(() -> 2))
                    .isInstanceOfSatisfying(
                            ApiError.class, e -> assertThat(e.code()).isEqualTo("queue_timeout"));
            assertThat((System.nanoTime() - t0) / 1e9).isBetween(0.15, 5.0);
            assertThat(pool.queued()).as("the refused work left the queue").isZero();
            // and so the slot takes the next one
            Thread next = Thread.ofVirtual().start(() -> {
                try {
                    ModelPool.result(pool.start(() -> 3));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            Thread.sleep(50);
            release.countDown();
            assertThat(ModelPool.result(busy)).isEqualTo(1);
            next.join(10_000);
            assertThat(next.isAlive()).isFalse();
        }
    }

    @Test
    void theWorksExceptionComesBackAsItWasThrownAndAClosedPoolRefuses() throws Exception {
        ModelPool pool = new ModelPool("m", 1, 0, Duration.ofSeconds(1));
        Future<Object> f = pool.start(() -> {
            throw new java.io.IOException("broken frame");
        });
        assertThatThrownBy(() -> ModelPool.result(f))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("broken frame");
        assertThat(pool.drain(Duration.ofSeconds(5))).isTrue();
        assertThatThrownBy(() -> pool.start(() -> 1))
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.code()).isEqualTo("shutting_down"));
        pool.close();
    }
}
