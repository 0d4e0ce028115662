package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.registry.BackendRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Defect 15: one SileroVad shared by several threads must give every caller exactly what a
 * single thread gets. Each thread runs a different clip (and rate) several times, so a runner
 * shared between callers would mix their windows, state or outputs.
 */
class SileroVadThreadSafetyTest {
    private static final int ROUNDS = 2;

    @Test
    void concurrentCallersOnTheCpuGetTheSingleThreadedResults() throws Exception {
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(2).build()) {
            check(engine, 4, new int[] {700, 1500, 9000, 20000}, true);
        }
    }

    /** On an engine opened for concurrent runs the callers' runners run at once, each its own graphs and state. */
    @Test
    void concurrentRunsOnTheCpuGetTheSingleThreadedResults() throws Exception {
        for (int threads : new int[] {1, 2}) {
            try (AudioEngine engine = AudioEngine.builder()
                    .backend("cpu")
                    .threads(threads)
                    .concurrentRuns(true)
                    .build()) {
                assertThat(engine.concurrentRuns()).isTrue();
                check(engine, 4, new int[] {700, 1500, 9000, 20000}, true);
            }
        }
    }

    @Test
    void concurrentCallersOnVulkanGetTheSingleThreadedResults() throws Exception {
        assumeVulkan();
        try (AudioEngine engine = AudioEngine.builder()
                .backend("vulkan")
                .fallback(FallbackPolicy.FAIL)
                .build()) {
            check(engine, 3, new int[] {700, 3000}, false); // lavapipe is slow: short calls of two graph sizes
        }
    }

    @Test
    void concurrentCallersOnVulkanThroughStagingBuffersGetTheSingleThreadedResults() throws Exception {
        assumeVulkan();
        // staging=always copies every input and output through the backend's staging buffer, as on discrete GPUs
        try (AudioEngine engine = AudioEngine.builder()
                .backend("vulkan")
                .option("vulkan.staging", "always")
                .fallback(FallbackPolicy.FAIL)
                .build()) {
            check(engine, 3, new int[] {700, 3000}, false);
        }
    }

    private static void assumeVulkan() {
        BackendRegistry registry = BackendRegistry.load();
        assumeTrue(
                registry.providers().stream()
                        .anyMatch(
                                p -> p.type() == BackendType.VULKAN && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
    }

    /** What one caller asks for: a slice of a fixture clip, at its rate. */
    private record Call(float[] samples, int rate) {}

    private static void check(AudioEngine engine, int threads, int[] lengths, boolean longCall) throws Exception {
        List<List<Call>> perThread = calls(threads, lengths, longCall);
        try (SileroVad vad = SileroVad.load(engine, SileroFixtures.model(SileroVadFamily.V6_FILE))) {
            List<List<float[]>> expected = new ArrayList<>();
            for (List<Call> calls : perThread) {
                List<float[]> e = new ArrayList<>();
                for (Call c : calls) e.add(vad.probabilities(c.samples(), c.rate()));
                expected.add(e);
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<String>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    List<Call> calls = perThread.get(t);
                    List<float[]> want = expected.get(t);
                    int thread = t;
                    results.add(pool.submit(() -> {
                        go.await();
                        StringBuilder wrong = new StringBuilder();
                        for (int round = 0; round < ROUNDS; round++) {
                            for (int i = 0; i < calls.size(); i++) {
                                float[] got = vad.probabilities(
                                        calls.get(i).samples(), calls.get(i).rate());
                                // the same graphs on the same engine: only the summation order of vector heads may
                                // differ
                                double diff = got.length == want.get(i).length
                                        ? SileroParityTest.maxAbsDiff(got, want.get(i))
                                        : 1;
                                if (diff > 1e-5)
                                    wrong.append(String.format(
                                            "thread %d round %d call %d: max|diff| %.3g%n", thread, round, i, diff));
                            }
                        }
                        return wrong.toString();
                    }));
                }
                go.countDown();
                StringBuilder all = new StringBuilder();
                for (Future<String> f : results) all.append(f.get());
                assertThat(all.toString())
                        .as(
                                "results that differ from the single-threaded ones on %s",
                                engine.device().name())
                        .isEmpty();
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * Per thread: short slices (a few chunks, so that much of a call is copying in and out around
     * the graph run) at both rates, and with {@code longCall} one slice longer than an offline batch
     * (the state crosses batches), each thread from other places in the recordings.
     */
    private static List<List<Call>> calls(int threads, int[] lengths, boolean longCall) {
        List<SileroFixtures.Audio> all = SileroFixtures.audio();
        SileroFixtures.Audio long16 = all.get(4), short8 = all.get(1);
        Random rnd = new Random(15);
        List<List<Call>> out = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Call> calls = new ArrayList<>();
            for (int i = 0; i < (longCall ? 8 : 5); i++) {
                SileroFixtures.Audio a = i % 3 == 2 ? short8 : long16;
                int n = Math.min(lengths[(t + i) % lengths.length] / (a.rate() == 8000 ? 2 : 1), a.samples().length);
                int from = rnd.nextInt(a.samples().length - n + 1);
                calls.add(new Call(Arrays.copyOfRange(a.samples(), from, from + n), a.rate()));
            }
            if (longCall) {
                int n = (SileroVad.OFFLINE_BATCH + 50) * 512;
                int from = rnd.nextInt(long16.samples().length - n + 1);
                calls.add(new Call(Arrays.copyOfRange(long16.samples(), from, from + n), 16000));
            }
            out.add(calls);
        }
        return out;
    }
}
