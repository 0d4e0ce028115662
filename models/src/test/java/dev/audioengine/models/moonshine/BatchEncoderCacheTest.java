package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The batch's compiled encoders are kept up to a budget of arena bytes, least recently used out: with a budget of
 * none, only the last size stays, and a size evicted and compiled again decodes its window to the same tokens (an
 * evicted encoder closed while still referenced, or its inputs reused after close, fails here). With the default
 * budget every size of the test stays, their bytes counted.
 */
class BatchEncoderCacheTest {
    /** Three lengths in three different 1 s buckets, so that each window needs an encoder of its own. */
    private static final int[] LENGTHS = {21_000, 37_000, 52_000};

    @Test
    void encodersPastTheBudgetAreEvictedAndCompiledAgain() throws Exception {
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                MoonshineModel model =
                        MoonshineModel.load(engine, MoonshineFixtures.tiny(), MoonshineFixtures.tokenizer())) {
            float[] speech = MoonshineFixtures.debianSet().get(0).samples();
            List<float[]> windows = new ArrayList<>();
            for (int n : LENGTHS) windows.add(Arrays.copyOf(speech, Math.min(speech.length, n)));
            int cross = (int) MoonshineConfig.frames(64_000), self = 64;

            List<List<Integer>> kept = new ArrayList<>();
            try (BatchDecoder all = new BatchDecoder(engine, model.weights(), 2, self, cross)) {
                for (float[] w : windows) kept.add(all.decode(w, 0, w.length, 40));
                long[] k = all.encodersKept();
                assertThat(k[0]).as("every size kept under the default budget").isEqualTo(LENGTHS.length);
                assertThat(k[1]).as("their arenas counted").isPositive();
            }
            assertThat(kept.stream().mapToInt(List::size).sum())
                    .as("the windows decode to text at all")
                    .isGreaterThan(LENGTHS.length * 3);

            try (BatchDecoder none = new BatchDecoder(engine, model.weights(), 2, self, cross, 0)) {
                for (int round = 0; round < 2; round++)
                    for (int i = 0; i < windows.size(); i++) {
                        float[] w = windows.get(i);
                        assertThat(none.decode(w, 0, w.length, 40))
                                .as("window %d, round %d, its encoder compiled again", i, round)
                                .isEqualTo(kept.get(i));
                        assertThat(none.encodersKept()[0])
                                .as("only the last size kept")
                                .isEqualTo(1);
                    }
            }
        }
    }
}
