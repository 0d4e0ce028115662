package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.model.task.BatchStats;
import dev.audioengine.model.task.Batching;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Batched decoding gives every window the tokens it gets alone (greedy), on the CPU and on Vulkan (lavapipe in CI):
 * the Debian recordings and pieces of them decoded one at a time, then from many threads at once through a batch of
 * 8 slots (4 on Vulkan), so that sequences of different lengths share steps, end mid-batch, and leave slots that later windows
 * reuse, and steps run at widths 1 to 8. The batch's figures prove the windows did share steps.
 */
class BatchedDecodingTest {
    private static final int TOKENS_PER_SECOND = 6, MAX_WINDOW = 20 * 16000;

    @Test
    void batchedTokensEqualOneAtATimeOnTheCpu() throws Exception {
        try (AudioEngine engine =
                AudioEngine.builder().backend("cpu").threads(2).build()) {
            check(engine, windows(), 8, 2);
        }
    }

    /** Fewer windows on Vulkan: lavapipe runs a decoder step about 20x slower than the CPU backend. */
    @Test
    void batchedTokensEqualOneAtATimeOnVulkan() throws Exception {
        assumeTrue(
                BackendRegistry.load().providers().stream()
                        .anyMatch(
                                p -> p.type() == BackendType.VULKAN && p.probe().available()),
                "no Vulkan device here (CI installs libvulkan1 and mesa-vulkan-drivers)");
        try (AudioEngine engine = AudioEngine.builder()
                .backend("vulkan")
                .fallback(FallbackPolicy.FAIL)
                .build()) {
            check(engine, windows().subList(0, 6), 4, 1);
        }
    }

    /** The windows: each recording whole, and its first 1.3 s and its last two thirds (ragged lengths). */
    private static List<float[]> windows() {
        List<float[]> out = new ArrayList<>();
        for (MoonshineFixtures.Utterance u : MoonshineFixtures.debianSet()) {
            float[] s = u.samples();
            out.add(s);
            out.add(java.util.Arrays.copyOf(s, Math.min(s.length, 21_000)));
            out.add(java.util.Arrays.copyOfRange(s, s.length / 3, s.length));
        }
        return out;
    }

    private static void check(AudioEngine engine, List<float[]> windows, int slots, int rounds) throws Exception {
        try (MoonshineModel model =
                MoonshineModel.load(engine, MoonshineFixtures.tiny(), MoonshineFixtures.tokenizer())) {
            List<List<Integer>> alone = new ArrayList<>();
            for (float[] w : windows) alone.add(decode(model, w));
            assertThat(alone.stream().mapToInt(List::size).sum())
                    .as("the windows decode to text at all")
                    .isGreaterThan(windows.size() * 5);

            model.batching(new Batching(slots, 0));
            // a window that finds the batch idle decodes alone, as without batching: no step of the batch
            assertThat(decode(model, windows.get(1))).isEqualTo(alone.get(1));
            assertThat(model.batchStats().steps())
                    .as("a lone window skips the batch")
                    .isZero();
            // a lone window through the batch: a width-1 step over the first of the slots
            model.aloneWhenIdle(false);
            assertThat(decode(model, windows.get(0))).isEqualTo(alone.get(0));
            assertThat(model.batchStats().steps()).isPositive();
            model.aloneWhenIdle(true);
            ExecutorService pool = Executors.newFixedThreadPool(12);
            try {
                List<Future<List<Integer>>> got = new ArrayList<>();
                for (int round = 0; round < rounds; round++)
                    for (float[] w : windows) got.add(pool.submit(() -> decode(model, w)));
                for (int i = 0; i < got.size(); i++)
                    assertThat(got.get(i).get(300, TimeUnit.SECONDS))
                            .as("window %d decoded in a batch", i % windows.size())
                            .isEqualTo(alone.get(i % windows.size()));
            } finally {
                pool.shutdownNow();
            }
            BatchStats stats = model.batchStats();
            assertThat(stats.slots()).isEqualTo(slots);
            assertThat(stats.windows()).as("the lone ones included").isEqualTo(2 + (long) rounds * windows.size());
            assertThat(stats.active()).isZero();
            assertThat(stats.queued()).isZero();
            assertThat(stats.occupancy()).as("windows shared steps: %s", stats).isGreaterThan(1.5);
        }
    }

    private static List<Integer> decode(MoonshineModel model, float[] w) {
        int maxTokens = Math.max(1, (int) (w.length / 16000.0 * TOKENS_PER_SECOND));
        return model.decode(w, 0, w.length, maxTokens, MAX_WINDOW, 20 * TOKENS_PER_SECOND)
                .tokens();
    }
}
