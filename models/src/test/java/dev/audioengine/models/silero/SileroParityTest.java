package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.task.VadOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Silero VAD on the CPU backend against ONNX Runtime on the original file: per-chunk
 * probabilities over whole files with the state carried (offline, batched, and streaming in
 * ragged pieces), and the segments of get_speech_timestamps applied to ORT's probabilities.
 */
class SileroParityTest {
    private static final double TOLERANCE = 1e-4;
    private static AudioEngine engine;

    @BeforeAll
    static void open() {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
    }

    @AfterAll
    static void close() {
        if (engine != null) engine.close();
    }

    @Test
    void probabilitiesAndSegmentsMatchOnnxRuntimeOnEveryFile() throws Exception {
        List<SileroFixtures.Audio> audio = SileroFixtures.audio();
        List<String> report = new ArrayList<>();
        for (ModelFile file : SileroFixtures.MODELS) {
            try (SileroVad vad = SileroVad.load(engine, SileroFixtures.model(file))) {
                for (SileroFixtures.Audio a : audio) {
                    float[] expected;
                    try (OrtSilero ort = new OrtSilero(SileroFixtures.model(file), a.rate())) {
                        expected = ort.probabilities(a.samples());
                    }
                    float[] got = vad.probabilities(a.samples(), a.rate());
                    assertThat(got).as("%s %s chunk count", file.name(), a).hasSameSizeAs(expected);
                    assertThat(vad.runSummary())
                            .as("every node on the CPU backend, none on a fallback")
                            .hasValueSatisfying(
                                    s -> assertThat(s.fallbackNodes()).isEmpty());
                    double max = maxAbsDiff(got, expected);
                    report.add(String.format("%s %-60s %5d chunks  max|diff| %.2e", vad.version(), a, got.length, max));
                    assertThat(max).as("%s on %s", file.name(), a).isLessThan(TOLERANCE);

                    int chunk = vad.chunkSize(a.rate());
                    assertThat(vad.segments(a.samples(), a.rate(), VadOptions.DEFAULTS))
                            .as("segments of %s on %s", file.name(), a)
                            .isEqualTo(SpeechTimestamps.segments(
                                    expected, chunk, a.samples().length, a.rate(), VadOptions.DEFAULTS));
                }
            }
        }
        report.forEach(System.out::println);
    }

    @Test
    void streamingInRaggedPiecesGivesTheSameProbabilities() throws Exception {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (SileroFixtures.Audio a : SileroFixtures.audio().subList(0, 4)) {
            ModelFile file = SileroFixtures.MODELS.get(rnd.nextInt(2));
            float[] expected;
            try (OrtSilero ort = new OrtSilero(SileroFixtures.model(file), a.rate())) {
                expected = ort.probabilities(a.samples());
            }
            try (SileroVad vad = SileroVad.load(engine, SileroFixtures.model(file));
                    StreamingSession s = vad.stream(a.rate(), VadOptions.DEFAULTS)) {
                List<Float> got = new ArrayList<>();
                for (int pass = 0; pass < 2; pass++) { // the second pass checks reset()
                    got.clear();
                    s.reset();
                    for (int i = 0; i < a.samples().length; ) {
                        int n = Math.min(a.samples().length - i, 1 + rnd.nextInt(1500));
                        for (float p : s.accept(java.util.Arrays.copyOfRange(a.samples(), i, i + n))
                                .probabilities()) got.add(p);
                        i += n;
                    }
                    for (float p : s.finish().probabilities()) got.add(p);
                    float[] g = new float[got.size()];
                    for (int i = 0; i < g.length; i++) g[i] = got.get(i);
                    assertThat(g).hasSameSizeAs(expected);
                    assertThat(maxAbsDiff(g, expected))
                            .as("%s %s pass %d seed %d", file.name(), a, pass, seed)
                            .isLessThan(TOLERANCE);
                }
            }
        }
    }

    static double maxAbsDiff(float[] a, float[] b) {
        double max = 0;
        for (int i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
        return max;
    }
}
