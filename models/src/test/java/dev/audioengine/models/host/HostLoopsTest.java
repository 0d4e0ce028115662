package dev.audioengine.models.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** Host loops split over threads cover every index once. */
class HostLoopsTest {
    @Test
    void everyIndexOnceForAnySizeAndThreadCount() {
        for (int threads : new int[] {1, 2, 3, 7}) {
            try (HostLoops loops = new HostLoops(threads)) {
                for (int n : new int[] {0, 1, 5, 1023, 4097, 100_003}) {
                    AtomicIntegerArray seen = new AtomicIntegerArray(Math.max(n, 1));
                    loops.forRange(n, 7, (from, to) -> {
                        for (int i = from; i < to; i++) seen.incrementAndGet(i);
                    });
                    for (int i = 0; i < n; i++)
                        assertThat(seen.get(i))
                                .as("index %d of %d on %d threads", i, n, threads)
                                .isEqualTo(1);
                }
            }
        }
        assertThatThrownBy(() -> new HostLoops(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
