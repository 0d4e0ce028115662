package dev.audioengine.models.openwakeword;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.Resampler;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Two measurements for docs/OPENWAKEWORD.md; prints, asserts nothing. Run with:
 * <pre>mvn -B -q -pl models -am verify -Dtest=OpenWakeWordBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false -DskipITs</pre>
 * <ol>
 *   <li>False accepts: detections at the default threshold (0.5, refractory 2 s) on speech without a wake word:
 *       Debian's pocketsphinx recordings (34 s of read English, looped 20 times with 0.25 s pauses between files) and
 *       espeak-ng reading the GPL-3 in three voices; with each keyword's highest score.
 *   <li>Streaming cost per 80 ms frame, one thread each, the engine (a stream fed one frame per call) and ONNX Runtime
 *       Java (the same pipeline: mel, embedding and the six heads per frame), in alternating rounds; and the engine's
 *       offline cost per frame (64 frames per graph run).
 *   <li>Where a frame's time goes: each of the three graphs run alone on one frame's input (mel: 1760 samples,
 *       embedding: 8 new feature rows as a stream runs it, and a whole 76-row window; heads: the six heads on 34
 *       embeddings), beside ONNX Runtime's mel and embedding models on the same inputs, in alternating rounds.
 * </ol>
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class OpenWakeWordBenchmark {
    private static final int ROUNDS = 7;

    public static void main(String[] args) throws Exception {
        OpenWakeWordBenchmark b = new OpenWakeWordBenchmark();
        b.falseAccepts();
        b.streamingCostPerFrameBesideOnnxRuntime();
        b.graphCostsPerFrame();
    }

    static float[] debianLooped(int loops) {
        List<OpenWakeWordFixtures.Audio> files = OpenWakeWordFixtures.negatives();
        int pause = 4000,
                one = files.stream().mapToInt(a -> a.samples().length + pause).sum();
        float[] out = new float[one * loops];
        int at = 0;
        for (int l = 0; l < loops; l++)
            for (OpenWakeWordFixtures.Audio a : files) {
                System.arraycopy(a.samples(), 0, out, at, a.samples().length);
                at += a.samples().length + pause;
            }
        return out;
    }

    /** espeak-ng reading the first {@code words} words of the GPL-3 in a voice, at 16 kHz. */
    static float[] espeakGpl(String voice, int words) throws Exception {
        String text = String.join(
                " ",
                Arrays.asList(Files.readString(Path.of("/usr/share/common-licenses/GPL-3"))
                                .split("\\s+"))
                        .subList(0, words));
        Path wav = Files.createTempFile("oww-gpl", ".wav");
        try {
            Process p = new ProcessBuilder("espeak-ng", "-v", voice, "-w", wav.toString(), text)
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("espeak-ng");
            var clip = WavReader.read(wav);
            return Resampler.resample(clip.samples(), clip.sampleRate(), 16000);
        } finally {
            Files.deleteIfExists(wav);
        }
    }

    @Test
    void falseAccepts() throws Exception {
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                OpenWakeWordSpotter spotter = OpenWakeWordSpotter.load(
                        engine,
                        OpenWakeWordFixtures.mel(),
                        OpenWakeWordFixtures.embedding(),
                        OpenWakeWordFixtures.heads(),
                        "bench")) {
            List<String> names = new ArrayList<>();
            List<float[]> sets = new ArrayList<>();
            names.add("Debian pocketsphinx recordings x20");
            sets.add(debianLooped(20));
            for (String voice : List.of("en-us", "en-gb-scotland", "en-029")) {
                names.add("espeak-ng " + voice + " reading GPL-3 (2000 words)");
                sets.add(espeakGpl(voice, 2000));
            }
            double totalHours = 0;
            int[] totalDetections = new int[spotter.keywords().size()];
            for (int s = 0; s < sets.size(); s++) {
                float[] audio = sets.get(s);
                double hours = audio.length / 16000.0 / 3600;
                totalHours += hours;
                float[][] scores = spotter.scores(audio, 16000, KeywordOptions.DEFAULTS);
                List<KeywordDetection> d = spotter.detect(audio, 16000, KeywordOptions.DEFAULTS);
                System.out.printf(Locale.ROOT, "%s: %.1f min, %d detections%n", names.get(s), hours * 60, d.size());
                for (int k = 0; k < spotter.keywords().size(); k++) {
                    String kw = spotter.keywords().get(k);
                    float max = 0;
                    for (float[] row : scores) max = Math.max(max, row[k]);
                    long n = d.stream().filter(x -> x.keyword().equals(kw)).count();
                    totalDetections[k] += (int) n;
                    System.out.printf(
                            Locale.ROOT,
                            "  %-16s detections %3d  max score %.4f%s%n",
                            kw,
                            n,
                            max,
                            n == 0
                                    ? ""
                                    : "  at "
                                            + d.stream()
                                                    .filter(x -> x.keyword().equals(kw))
                                                    .map(x -> String.format(Locale.ROOT, "%.2f s", x.seconds()))
                                                    .toList());
                }
            }
            System.out.printf(Locale.ROOT, "all negatives: %.1f min%n", totalHours * 60);
            for (int k = 0; k < totalDetections.length; k++)
                System.out.printf(
                        Locale.ROOT,
                        "  %-16s %d false accepts, %.1f per hour%n",
                        spotter.keywords().get(k),
                        totalDetections[k],
                        totalDetections[k] / totalHours);
        }
    }

    @Test
    void streamingCostPerFrameBesideOnnxRuntime() throws Exception {
        float[] audio = debianLooped(1);
        int frames = audio.length / 1280;
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                OpenWakeWordSpotter spotter = OpenWakeWordSpotter.load(
                        engine,
                        OpenWakeWordFixtures.mel(),
                        OpenWakeWordFixtures.embedding(),
                        OpenWakeWordFixtures.heads(),
                        "bench");
                OrtOpenWakeWord ort = new OrtOpenWakeWord(
                        OpenWakeWordFixtures.mel(), OpenWakeWordFixtures.embedding(), OpenWakeWordFixtures.heads())) {
            Runnable engineStream = () -> {
                try (KeywordStream s = spotter.stream(KeywordOptions.DEFAULTS)) {
                    for (int f = 0; f < frames; f++) s.accept(audio, f * 1280, 1280);
                }
            };
            Runnable engineOffline =
                    () -> spotter.scores(Arrays.copyOf(audio, frames * 1280), 16000, KeywordOptions.DEFAULTS);
            Runnable onnx = () -> {
                try {
                    ort.scores(Arrays.copyOf(audio, frames * 1280));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            for (Runnable r : List.of(engineStream, engineOffline, onnx)) r.run(); // warm up: JIT, graphs, sessions
            double[][] us = new double[3][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) { // alternating: a shared machine's noise hits each alike
                List<Runnable> order = List.of(engineStream, onnx, engineOffline);
                for (int i = 0; i < 3; i++) {
                    long t0 = System.nanoTime();
                    order.get(i).run();
                    us[i][round] = (System.nanoTime() - t0) / 1e3 / frames;
                }
            }
            String[] what = {
                "engine, stream, one frame per call",
                "ONNX Runtime, one frame per call",
                "engine, offline, 64 frames per graph run"
            };
            System.out.printf(
                    Locale.ROOT,
                    "%d frames (%.1f s of audio) per round, %d rounds, 1 thread each%n",
                    frames,
                    frames * 0.08,
                    ROUNDS);
            for (int i = 0; i < 3; i++) {
                double[] sorted = us[i].clone();
                Arrays.sort(sorted);
                System.out.printf(
                        Locale.ROOT,
                        "  %-42s median %7.0f us/frame (rounds %s)%n",
                        what[i],
                        sorted[ROUNDS / 2],
                        Arrays.stream(us[i])
                                .mapToObj(v -> String.format(Locale.ROOT, "%.0f", v))
                                .toList());
            }
        }
    }

    @Test
    void graphCostsPerFrame() throws Exception {
        float[] audio = debianLooped(1);
        int samples = OpenWakeWordNetwork.CHUNK + OpenWakeWordNetwork.CONTEXT, reps = 200;
        int rows = OpenWakeWordNetwork.EMBEDDING_WINDOW * OpenWakeWordNetwork.MEL_BINS;
        java.util.Map<String, java.nio.file.Path> headFiles = OpenWakeWordFixtures.heads();
        List<WakeWordHead> heads = new ArrayList<>();
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                dev.audioengine.weights.onnx.OnnxModel m =
                        dev.audioengine.weights.onnx.OnnxModel.read(OpenWakeWordFixtures.mel());
                dev.audioengine.weights.onnx.OnnxModel e =
                        dev.audioengine.weights.onnx.OnnxModel.read(OpenWakeWordFixtures.embedding());
                OpenWakeWordWeights w = OpenWakeWordWeights.fromOnnx(m, "mel", e, "embedding");
                FeatureRunner runner = new FeatureRunner(engine, w, x -> {});
                OrtOpenWakeWord ort =
                        new OrtOpenWakeWord(OpenWakeWordFixtures.mel(), OpenWakeWordFixtures.embedding(), headFiles)) {
            for (var h : headFiles.entrySet())
                try (dev.audioengine.weights.onnx.OnnxModel hm =
                        dev.audioengine.weights.onnx.OnnxModel.read(h.getValue())) {
                    heads.add(WakeWordHead.fromOnnx(hm, h.getKey(), h.getValue().toString()));
                }
            FeatureRunner.HeadSet set = new FeatureRunner.HeadSet(heads);
            long h = OpenWakeWordNetwork.EMBEDDING_WINDOW, wd = OpenWakeWordNetwork.MEL_BINS;
            for (Object l : w.embeddingLayers) { // the embedding's shapes, and each convolution's GEMM
                if (l instanceof OpenWakeWordWeights.Conv c) {
                    h = h - c.kh() + 1;
                    wd = wd + 2L * c.padW() - c.kw() + 1;
                    System.out.printf(
                            Locale.ROOT,
                            "  conv %dx%d %d->%d: out %dx%dx%d, GEMM [%d, %d] x [%d, %d], %.2f MFLOP%n",
                            c.kh(),
                            c.kw(),
                            c.cin(),
                            c.cout(),
                            h,
                            wd,
                            c.cout(),
                            h * wd,
                            (long) c.kh() * c.kw() * c.cin(),
                            (long) c.kh() * c.kw() * c.cin(),
                            c.cout(),
                            2.0 * h * wd * c.kh() * c.kw() * c.cin() * c.cout() / 1e6);
                } else if (l instanceof OpenWakeWordWeights.Pool p) {
                    h /= p.kh();
                    wd /= p.kw();
                    System.out.printf(Locale.ROOT, "  pool %dx%d: out %dx%d%n", p.kh(), p.kw(), h, wd);
                }
            }
            float[] window = Arrays.copyOfRange(audio, 16000, 16000 + samples);
            float[] features = new float[OpenWakeWordNetwork.frames(samples) * OpenWakeWordNetwork.MEL_BINS];
            float[] featureWindow = new float[rows];
            for (int i = 0; i < rows; i++) featureWindow[i] = 1f + (float) Math.sin(i * 0.37);
            float[] embedding = new float[OpenWakeWordNetwork.EMBEDDING_DIM];
            float[] embeddings = new float[set.window * OpenWakeWordNetwork.EMBEDDING_DIM];
            for (int i = 0; i < embeddings.length; i++) embeddings[i] = (float) Math.cos(i * 0.11);
            float[] scores = new float[set.outputs];
            float[][] caches = runner.seedCaches();
            float[] strip = Arrays.copyOfRange(featureWindow, rows - OpenWakeWordNetwork.STEP * 32, rows);
            String[] what = {
                "engine mel",
                "engine embedding, streaming",
                "engine embedding, whole window",
                "engine heads (6)",
                "ORT mel",
                "ORT embedding"
            };
            List<Runnable> runs = List.of(
                    () -> runner.mel(window, 1, samples, features),
                    () -> runner.embedStrip(strip, 1, caches, embedding),
                    () -> runner.embed(featureWindow, 1, embedding),
                    () -> runner.heads(set, embeddings, 1, scores),
                    () -> {
                        try {
                            ort.features(window, 0, samples);
                        } catch (Exception x) {
                            throw new IllegalStateException(x);
                        }
                    },
                    () -> {
                        try {
                            ort.embed(featureWindow);
                        } catch (Exception x) {
                            throw new IllegalStateException(x);
                        }
                    });
            for (Runnable r : runs) for (int i = 0; i < reps; i++) r.run(); // warm up
            double[][] us = new double[runs.size()][ROUNDS];
            for (int round = 0; round < ROUNDS; round++)
                for (int k = 0; k < runs.size(); k++) {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < reps; i++) runs.get(k).run();
                    us[k][round] = (System.nanoTime() - t0) / 1e3 / reps;
                }
            System.out.printf(
                    Locale.ROOT, "one frame's graphs, %d runs per round, %d rounds, 1 thread%n", reps, ROUNDS);
            for (int k = 0; k < runs.size(); k++) {
                double[] sorted = us[k].clone();
                Arrays.sort(sorted);
                System.out.printf(
                        Locale.ROOT,
                        "  %-32s median %7.0f us (rounds %s)%n",
                        what[k],
                        sorted[ROUNDS / 2],
                        Arrays.stream(us[k])
                                .mapToObj(v -> String.format(Locale.ROOT, "%.0f", v))
                                .toList());
            }
        } finally {
            for (WakeWordHead h : heads) h.close();
        }
    }
}
