package dev.audioengine.models.openwakeword;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.KeywordDebounce;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.weights.onnx.OnnxModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * openWakeWord on the CPU backend against ONNX Runtime on the same ONNX files, stage by stage (the mel features on odd
 * lengths and in batches, the embeddings, every head) and over whole recordings through openWakeWord's streaming
 * pipeline: per-frame scores of every keyword within 1e-4 on Debian's recordings (no wake word in them) and on
 * espeak-ng saying the wake words, the same detections, and the positives detected at all.
 */
class OpenWakeWordParityTest {
    /** Per-frame keyword scores (sigmoid and softmax outputs). */
    static final double SCORE_TOLERANCE = 1e-4;
    /**
     * Features (x/10 + 2 of a dB value: 1e-4 is 1e-3 dB). The STFT is a 512-term dot product of 16-bit-scale values,
     * summed in another order than ONNX Runtime's convolution. Measured 1.9e-6.
     */
    static final double FEATURE_TOLERANCE = 1e-4;

    /** Embedding values reach about 60; measured 4.1e-5 (float32 rounding through 20 convolutions). */
    static final double EMBEDDING_TOLERANCE = 5e-4;

    private static AudioEngine engine;
    private static OrtOpenWakeWord ort;
    private static OpenWakeWordWeights weights;
    private static OpenWakeWordSpotter spotter;
    private static final List<String> report = new ArrayList<>();

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
        Map<String, java.nio.file.Path> heads = OpenWakeWordFixtures.heads();
        ort = new OrtOpenWakeWord(OpenWakeWordFixtures.mel(), OpenWakeWordFixtures.embedding(), heads);
        try (OnnxModel m = OnnxModel.read(OpenWakeWordFixtures.mel());
                OnnxModel e = OnnxModel.read(OpenWakeWordFixtures.embedding())) {
            weights = OpenWakeWordWeights.fromOnnx(m, "mel", e, "embedding");
        }
        spotter = OpenWakeWordSpotter.load(
                engine, OpenWakeWordFixtures.mel(), OpenWakeWordFixtures.embedding(), heads, "test");
    }

    @AfterAll
    static void close() throws Exception {
        report.forEach(System.out::println);
        if (spotter != null) spotter.close();
        if (weights != null) weights.close();
        if (ort != null) ort.close();
        if (engine != null) engine.close();
    }

    @Test
    void featuresMatchOnOddLengthsAndInBatches() throws Exception {
        float[] speech = OpenWakeWordFixtures.negatives().getFirst().samples();
        float[] jarvis = OpenWakeWordFixtures.positive(OpenWakeWordFixtures.POSITIVES.getFirst())
                .samples();
        // silence then speech: the top_db clamp (peak - 80 dB) holds the silent frames up
        float[] quietThenLoud = new float[4000];
        System.arraycopy(speech, 8000, quietThenLoud, 2400, 1600);
        try (FeatureRunner runner = new FeatureRunner(engine, weights, s -> {})) {
            double worst = 0;
            for (float[] audio : List.of(speech, jarvis, quietThenLoud)) {
                for (int len : new int[] {512, 513, 671, 1280, 1760, 3999, 1760 + 159}) {
                    int from = Math.min(777, audio.length - len);
                    float[] x = Arrays.copyOfRange(audio, from, from + len);
                    float[][] expected = ort.features(x, 0, len);
                    float[] got = new float[OpenWakeWordNetwork.frames(len) * 32];
                    runner.mel(x, 1, len, got);
                    assertThat(got.length).as("frames of %d samples", len).isEqualTo(expected.length * 32);
                    worst = Math.max(worst, maxDiff(got, flatten(expected)));
                }
            }
            // three windows in one run: each clamped at its own peak, as three ONNX calls
            int n = 3, len = 1760;
            float[] windows = new float[n * len];
            float[] expected = new float[0];
            int[] starts = {0, 2400, 9000};
            float[] mixed = new float[12000];
            System.arraycopy(speech, 0, mixed, 4000, 8000);
            for (int i = 0; i < n; i++) {
                System.arraycopy(mixed, starts[i], windows, i * len, len);
                float[] e = flatten(ort.features(mixed, starts[i], len));
                expected = concat(expected, e);
            }
            float[] got = new float[expected.length];
            runner.mel(windows, n, len, got);
            worst = Math.max(worst, maxDiff(got, expected));
            report.add(String.format(Locale.ROOT, "features (mel, x/10+2): max|diff| %.2e", worst));
            assertThat(worst).isLessThan(FEATURE_TOLERANCE);
        }
    }

    @Test
    void embeddingsMatch() throws Exception {
        float[] speech = OpenWakeWordFixtures.negatives().getLast().samples();
        float[][] f = ort.features(speech, 0, 16000 * 2);
        List<float[]> windows = new ArrayList<>();
        float[] ones = new float[76 * 32];
        Arrays.fill(ones, 1f);
        windows.add(ones);
        for (int s = 0; s + 76 <= f.length; s += 8)
            windows.add(OrtOpenWakeWord.window(Arrays.asList(f).subList(0, s + 76)));
        int n = windows.size();
        float[] in = new float[n * 76 * 32], expected = new float[n * 96];
        for (int i = 0; i < n; i++) {
            System.arraycopy(windows.get(i), 0, in, i * 76 * 32, 76 * 32);
            System.arraycopy(ort.embed(windows.get(i)), 0, expected, i * 96, 96);
        }
        try (FeatureRunner runner = new FeatureRunner(engine, weights, s -> {})) {
            float[] batched = new float[n * 96], one = new float[96];
            runner.embed(in, n, batched);
            double worst = maxDiff(batched, expected), batchVsOne = 0;
            for (int i = 0; i < n; i++) {
                runner.embed(windows.get(i), 1, one);
                worst = Math.max(worst, maxDiff(one, Arrays.copyOfRange(expected, i * 96, i * 96 + 96)));
                batchVsOne = Math.max(batchVsOne, maxDiff(one, Arrays.copyOfRange(batched, i * 96, i * 96 + 96)));
            }
            double scale = 0;
            for (float v : expected) scale = Math.max(scale, Math.abs(v));
            report.add(String.format(
                    Locale.ROOT,
                    "embeddings (%d windows): max|diff| %.2e (values up to %.1f);"
                            + " batch of %d vs one at a time %.2e",
                    n,
                    worst,
                    scale,
                    n,
                    batchVsOne));
            assertThat(worst).isLessThan(EMBEDDING_TOLERANCE);
        }
    }

    /**
     * The streaming embedding ({@link OpenWakeWordNetwork#embeddingStrip}: 8 new rows and the caches of the window
     * before) equals ONNX Runtime's embedding of each whole window, as a stream meets them: a buffer of 76 rows of ones
     * then speech features, windows 5, 13, 21, ... rows in, run one at a time and then in strips of 3 and 2.
     */
    @Test
    void streamingEmbeddingsMatchWholeWindows() throws Exception {
        float[] speech = OpenWakeWordFixtures.negatives().getLast().samples();
        float[][] f = ort.features(speech, 16000, 16000 * 2);
        List<float[]> buffer = new ArrayList<>();
        for (int i = 0; i < 76; i++) {
            float[] row = new float[32];
            Arrays.fill(row, 1f);
            buffer.add(row);
        }
        buffer.addAll(Arrays.asList(f));
        int m = (buffer.size() - 81) / 8 + 1;
        float[][] expected = new float[m][];
        for (int j = 0; j < m; j++) expected[j] = ort.embed(OrtOpenWakeWord.window(buffer.subList(0, 81 + 8 * j)));
        try (FeatureRunner runner = new FeatureRunner(engine, weights, s -> {})) {
            double worst = 0;
            for (int[] strips : new int[][] {{1}, {3, 2}}) {
                float[][] caches = runner.seedCaches();
                for (int j = 0, s = 0; j < m; s++) {
                    int k = Math.min(strips[s % strips.length], m - j);
                    float[] rows = new float[k * 8 * 32];
                    for (int r = 0; r < k * 8; r++) System.arraycopy(buffer.get(73 + 8 * j + r), 0, rows, r * 32, 32);
                    float[] got = new float[k * 96];
                    runner.embedStrip(rows, k, caches, got);
                    for (int i = 0; i < k; i++)
                        worst = Math.max(worst, maxDiff(Arrays.copyOfRange(got, i * 96, i * 96 + 96), expected[j + i]));
                    j += k;
                }
            }
            report.add(String.format(
                    Locale.ROOT,
                    "streaming embeddings (%d windows, strips of 1 and of 3, 2): max|diff| %.2e",
                    m,
                    worst));
            assertThat(worst).isLessThan(EMBEDDING_TOLERANCE);
        }
    }

    @Test
    void everyHeadMatchesIncludingBothVerifierBranches() throws Exception {
        // speech, then a positive: hey_jarvis' classifier passes 0.5 on some frames (its verifier decides) and not on
        // others; long enough for the timer head's 34 embeddings
        float[] jarvis = concat(
                Arrays.copyOf(OpenWakeWordFixtures.negatives().getLast().samples(), 3 * 16000),
                OpenWakeWordFixtures.positive(OpenWakeWordFixtures.POSITIVES.getFirst())
                        .samples());
        float[][] f = ort.features(jarvis, 0, jarvis.length);
        List<float[]> emb = new ArrayList<>();
        for (int s = 0; s + 76 <= f.length; s += 8)
            emb.add(ort.embed(OrtOpenWakeWord.window(Arrays.asList(f).subList(0, s + 76))));
        double worst = 0;
        int verified = 0, unverified = 0;
        try (FeatureRunner runner = new FeatureRunner(engine, weights, s -> {})) {
            for (var h : OpenWakeWordFixtures.heads().entrySet()) {
                WakeWordHead head;
                try (OnnxModel m = OnnxModel.read(h.getValue())) {
                    head = WakeWordHead.fromOnnx(m, h.getKey(), h.getValue().toString());
                }
                try (head) {
                    assertThat(head.window).as(h.getKey()).isEqualTo(ort.window(h.getKey()));
                    FeatureRunner.HeadSet set = new FeatureRunner.HeadSet(List.of(head));
                    int w = head.window, n = emb.size() - w + 1;
                    assertThat(n).isPositive();
                    float[] in = new float[n * w * 96];
                    for (int i = 0; i < n; i++)
                        for (int j = 0; j < w; j++) System.arraycopy(emb.get(i + j), 0, in, (i * w + j) * 96, 96);
                    float[] raw = new float[n * set.outputs];
                    runner.heads(set, in, n, raw);
                    for (int i = 0; i < n; i++) {
                        float[] expected =
                                ort.head(h.getKey(), Arrays.copyOfRange(in, i * w * 96, (i + 1) * w * 96), w);
                        float[] got = Arrays.copyOfRange(raw, i * set.outputs, (i + 1) * set.outputs);
                        if (head.verifier != null) { // the If: the verifier's score where the classifier passes
                            boolean passes = got[0] >= head.verifierThreshold;
                            if (passes) verified++;
                            else unverified++;
                            got = new float[] {passes ? got[1] : got[0]};
                        }
                        worst = Math.max(worst, maxDiff(got, expected));
                    }
                }
            }
        }
        report.add(String.format(
                Locale.ROOT,
                "heads: max|diff| %.2e (hey_jarvis verifier ran on %d frames, not on %d)",
                worst,
                verified,
                unverified));
        assertThat(verified).as("frames where hey_jarvis' verifier decides").isPositive();
        assertThat(unverified).isPositive();
        assertThat(worst).isLessThan(SCORE_TOLERANCE);
    }

    @Test
    void scoresAndDetectionsMatchOverWholeRecordings() throws Exception {
        assertThat(spotter.keywords()).isEqualTo(ort.keywords());
        List<OpenWakeWordFixtures.Audio> audio = new ArrayList<>(OpenWakeWordFixtures.negatives());
        List<String> expectedKeyword = new ArrayList<>();
        for (int i = 0; i < audio.size(); i++) expectedKeyword.add(null);
        for (OpenWakeWordFixtures.Positive p : OpenWakeWordFixtures.POSITIVES) {
            audio.add(OpenWakeWordFixtures.positive(p));
            expectedKeyword.add(p.keyword());
        }
        double worst = 0;
        for (int a = 0; a < audio.size(); a++) {
            OpenWakeWordFixtures.Audio clip = audio.get(a);
            float[][] expected = ort.scores(clip.samples());
            float[][] got = spotter.scores(clip.samples(), 16000, KeywordOptions.DEFAULTS);
            assertThat(got.length).as("frames of %s", clip).isEqualTo(expected.length);
            double max = 0;
            for (int f = 0; f < got.length; f++) max = Math.max(max, maxDiff(got[f], expected[f]));
            worst = Math.max(worst, max);
            List<KeywordDetection> ours = spotter.detect(clip.samples(), 16000, KeywordOptions.DEFAULTS);
            List<KeywordDetection> theirs = detections(expected, spotter.keywords());
            report.add(String.format(
                    Locale.ROOT,
                    "scores %-70s %4d frames max|diff| %.2e detections %s",
                    clip,
                    got.length,
                    max,
                    names(ours)));
            assertThat(max).as("scores of %s", clip).isLessThan(SCORE_TOLERANCE);
            assertThat(names(ours)).as("detections in %s", clip).isEqualTo(names(theirs));
            String keyword = expectedKeyword.get(a);
            if (keyword != null)
                assertThat(ours)
                        .as("%s detected in %s", keyword, clip)
                        .anyMatch(d -> d.keyword().equals(keyword));
        }
        report.add(String.format(Locale.ROOT, "scores over every recording: max|diff| %.2e", worst));
    }

    static List<KeywordDetection> detections(float[][] scores, List<String> keywords) {
        KeywordDebounce d = new KeywordDebounce(keywords, KeywordOptions.DEFAULTS, 0.08);
        List<KeywordDetection> out = new ArrayList<>();
        for (float[] row : scores) out.addAll(d.accept(row));
        return out;
    }

    static List<String> names(List<KeywordDetection> d) {
        return d.stream().map(x -> x.keyword() + "@" + x.frame()).toList();
    }

    static double maxDiff(float[] a, float[] b) {
        assertThat(a).hasSameSizeAs(b);
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            double d = Math.abs((double) a[i] - b[i]);
            if (Double.isNaN(d)) return Double.POSITIVE_INFINITY;
            m = Math.max(m, d);
        }
        return m;
    }

    static float[] flatten(float[][] rows) {
        float[] out = new float[rows.length * (rows.length == 0 ? 0 : rows[0].length)];
        for (int i = 0; i < rows.length; i++) System.arraycopy(rows[i], 0, out, i * rows[i].length, rows[i].length);
        return out;
    }

    static float[] concat(float[] a, float[] b) {
        float[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
