package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.VadOptions;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Defect 5: a NaN or infinite sample is an input error naming the first bad sample and its time, on every entry point. */
class NonFiniteSamplesTest {
    private static AudioEngine engine;
    private static SileroVad vad;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
        vad = SileroVad.load(engine, SileroFixtures.model(SileroVadFamily.V6_FILE));
    }

    @AfterAll
    static void close() {
        if (vad != null) vad.close();
        if (engine != null) engine.close();
    }

    private static float[] noiseWith(int at, float bad) {
        float[] x = new float[16000 * 2];
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < x.length; i++) x[i] = (float) (0.05 * rnd.nextGaussian());
        x[at] = bad;
        x[at + 100] = Float.NaN; // only the first one is named
        return x;
    }

    @Test
    void offlineCallsRejectNaNAndInfinityNamingTheFirstSample() {
        float[] nan = noiseWith(24000, Float.NaN);
        assertThatThrownBy(() -> vad.probabilities(nan, 16000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample 24000")
                .hasMessageContaining("1.500 s")
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> vad.segments(nan, 16000, VadOptions.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample 24000");
        float[] inf = noiseWith(8001, Float.NEGATIVE_INFINITY);
        assertThatThrownBy(() -> vad.probabilities(inf, 8000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample 8001")
                .hasMessageContaining("1.000 s")
                .hasMessageContaining("-Infinity");
    }

    @Test
    void streamingRejectsTheBadPieceCountingSamplesFromTheStartOfTheStream() {
        float[] x = noiseWith(20000, Float.POSITIVE_INFINITY);
        try (StreamingSession s = vad.stream(16000, VadOptions.DEFAULTS)) {
            s.accept(Arrays.copyOfRange(x, 0, 16000));
            assertThatThrownBy(() -> s.accept(Arrays.copyOfRange(x, 16000, 32000)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sample 20000")
                    .hasMessageContaining("1.250 s")
                    .hasMessageContaining("Infinity");
        }
    }

    @Test
    void finiteAudioStillRuns() {
        float[] x = noiseWith(100, 0.5f);
        x[200] = 0;
        float[] p = vad.probabilities(x, 16000);
        assertThat(p).hasSize(x.length / 512 + 1);
        for (float v : p) assertThat(v).isBetween(0f, 1f);
    }
}
