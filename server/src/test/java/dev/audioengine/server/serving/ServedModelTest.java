package dev.audioengine.server.serving;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.Batching;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How a model on several devices chooses the replica a request goes to. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServedModelTest {
    private ServedModel closeLater;

    @org.junit.jupiter.api.AfterEach
    void closePools() {
        if (closeLater != null) closeLater.close();
    }

    private static ServedModel onEngines(List<AudioEngine> engines, int workers) {
        ServedSource source = new ServedSource("m", null, Task.ASR, null, Path.of("m"));
        return new ServedModel(
                source, null, engines, () -> new ModelPool("m", workers, 64, Duration.ofSeconds(30)), Batching.NONE);
    }

    /**
     * 63 requests choose at once, before any has reached a pool: every replica looks idle to all of them, and they
     * must still be dealt out evenly (the choice once read the pools alone, and a burst could all go to the first).
     */
    @Test
    void aBurstChosenBeforeAnyRunsIsDealtOutEvenly() throws Exception {
        try (AudioEngine a = AudioEngine.builder().backend("cpu").threads(1).build();
                AudioEngine b = AudioEngine.builder().backend("cpu").threads(1).build();
                AudioEngine c = AudioEngine.builder().backend("cpu").threads(1).build();
                ExecutorService clients = Executors.newFixedThreadPool(63)) {
            ServedModel model = onEngines(List.of(a, b, c), 4);
            closeLater = model;
            CyclicBarrier together = new CyclicBarrier(63);
            List<Future<Integer>> chosen = new ArrayList<>();
            for (int i = 0; i < 63; i++)
                chosen.add(clients.submit(() -> {
                    together.await();
                    return model.replica().index();
                }));
            int[] count = new int[3];
            for (Future<Integer> f : chosen) count[f.get()]++;
            assertThat(count).containsExactly(21, 21, 21);
            assertThat(model.replicas().stream().mapToLong(ServedModel.Replica::requests))
                    .containsExactly(21L, 21L, 21L);
        }
    }

    /** Load comes first: a replica with requests running is passed over for an idle one, whatever was sent before. */
    @Test
    void aBusyReplicaIsPassedOverForAnIdleOne() throws Exception {
        try (AudioEngine a = AudioEngine.builder().backend("cpu").threads(1).build();
                AudioEngine b = AudioEngine.builder().backend("cpu").threads(1).build()) {
            ServedModel model = onEngines(List.of(a, b), 2);
            closeLater = model;
            CountDownLatch release = new CountDownLatch(1);
            // replica 1 has been sent more requests but runs none; replica 0 runs two
            for (int i = 0; i < 3; i++) model.replica();
            assertThat(model.replicas().get(1).requests()).isEqualTo(1);
            model.replica(); // to 1: equal load, fewer sent
            model.replica(); // to 0
            List<Future<Integer>> running = new ArrayList<>();
            for (int i = 0; i < 2; i++)
                running.add(model.replicas().getFirst().pool().start(() -> {
                    release.await();
                    return 0;
                }));
            assertThat(model.replicas().get(0).requests()).isEqualTo(3);
            assertThat(model.replicas().get(1).requests()).isEqualTo(2);
            for (int i = 0; i < 3; i++)
                assertThat(model.replica().index()).as("request %d", i).isEqualTo(1);
            release.countDown();
            for (Future<Integer> f : running) ModelPool.result(f);
        }
    }
}
