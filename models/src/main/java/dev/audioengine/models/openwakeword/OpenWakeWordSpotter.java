package dev.audioengine.models.openwakeword;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.weights.onnx.OnnxModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * openWakeWord on an {@link AudioEngine}: the shared front end (melspectrogram and embedding models) and any number of
 * heads, each reporting one keyword or several classes (the timer head). Scores follow openWakeWord's streaming
 * pipeline ({@link ScoreStream}); the first {@value #WARMUP_FRAMES} frames of a stream score 0, as openWakeWord's
 * {@code Model.predict} does while its buffers fill. 16 kHz audio only.
 *
 * <p>Thread-safe: any number of threads may call {@link #scores}, {@link #detect} and open streams at once. The graphs
 * are compiled once per batch size and shared; runs on one engine take turns. Streams are not thread-safe: one per
 * audio source. Close the spotter after every call and stream has ended.
 */
public final class OpenWakeWordSpotter implements KeywordSpotter {
    /** Frames scored 0 at the start of a stream (openWakeWord's "zero predictions for first 5 frames"). */
    static final int WARMUP_FRAMES = 5;
    /** Chunks per graph run at most, when a call brings many (a file): 5 s of audio. */
    static final int BATCH = 64;

    private final OpenWakeWordWeights weights;
    private final List<WakeWordHead> heads;
    private final List<String> keywords;
    private final Map<String, WakeWordHead> headOf = new LinkedHashMap<>();
    private final FeatureRunner runner;
    private final float[] padEmbedding;
    private final String description;
    private final Map<List<WakeWordHead>, FeatureRunner.HeadSet> headSets = new ConcurrentHashMap<>();
    private volatile RunSummary lastSummary;
    private volatile boolean closed;

    private OpenWakeWordSpotter(
            AudioEngine engine, OpenWakeWordWeights weights, List<WakeWordHead> heads, String description) {
        this.weights = weights;
        this.heads = List.copyOf(heads);
        this.description = description;
        List<String> names = new ArrayList<>();
        for (WakeWordHead h : heads) {
            for (String label : h.labels) {
                if (headOf.put(label, h) != null)
                    throw new IllegalArgumentException("two heads report the keyword '" + label + "'");
                names.add(label);
            }
        }
        keywords = List.copyOf(names);
        runner = new FeatureRunner(engine, weights, s -> lastSummary = s);
        // the embedding of openWakeWord's initial feature buffer (76 frames of ones) fills the embedding buffer
        float[] ones = new float[OpenWakeWordNetwork.EMBEDDING_WINDOW * OpenWakeWordNetwork.MEL_BINS];
        Arrays.fill(ones, 1f);
        padEmbedding = new float[OpenWakeWordNetwork.EMBEDDING_DIM];
        runner.embed(ones, 1, padEmbedding);
    }

    /**
     * Loads the front end and the heads; every head's keywords must differ.
     *
     * @param engine      where the graphs run
     * @param mel         melspectrogram.onnx
     * @param embedding   embedding_model.onnx
     * @param heads       the head files with the keyword name each reports (a multi-class head names its classes
     *                    itself; the name is then the prefix of unnamed ones)
     * @param description what {@link #describe()} says
     * @return the spotter
     * @throws IOException              when a file cannot be read
     * @throws IllegalArgumentException when a file is not of the shape openWakeWord's are
     */
    public static OpenWakeWordSpotter load(
            AudioEngine engine, Path mel, Path embedding, Map<String, Path> heads, String description)
            throws IOException {
        OpenWakeWordWeights w;
        try (OnnxModel m = OnnxModel.read(mel);
                OnnxModel e = OnnxModel.read(embedding)) {
            w = OpenWakeWordWeights.fromOnnx(m, mel.toString(), e, embedding.toString());
        }
        List<WakeWordHead> loaded = new ArrayList<>();
        try {
            for (var h : heads.entrySet()) {
                try (OnnxModel m = OnnxModel.read(h.getValue())) {
                    loaded.add(WakeWordHead.fromOnnx(m, h.getKey(), h.getValue().toString()));
                }
            }
            return new OpenWakeWordSpotter(engine, w, loaded, description);
        } catch (IOException | RuntimeException ex) {
            loaded.forEach(WakeWordHead::close);
            w.close();
            throw ex;
        }
    }

    @Override
    public Task task() {
        return Task.KWS;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public Optional<RunSummary> runSummary() {
        return Optional.ofNullable(lastSummary);
    }

    @Override
    public int sampleRate() {
        return OpenWakeWordNetwork.SAMPLE_RATE;
    }

    @Override
    public int frameSize() {
        return OpenWakeWordNetwork.CHUNK;
    }

    @Override
    public List<String> keywords() {
        return keywords;
    }

    /** Embeddings each head reads, by keyword (for descriptions and tests). */
    public int window(String keyword) {
        WakeWordHead h = headOf.get(keyword);
        if (h == null) throw unknown(keyword);
        return h.window;
    }

    @Override
    public float[][] scores(float[] samples, int sampleRate, KeywordOptions options) {
        if (sampleRate != sampleRate())
            throw new IllegalArgumentException(
                    "openWakeWord runs at 16000 Hz, got " + sampleRate + " Hz; resample the audio first");
        try (OpenWakeWordStream s = stream(options)) {
            float[][] a = s.accept(samples).scores(), b = s.finish().scores();
            float[][] out = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, out, a.length, b.length);
            return out;
        }
    }

    @Override
    public OpenWakeWordStream stream(KeywordOptions options) {
        if (closed) throw new IllegalStateException("this spotter is closed");
        List<String> selected = options.keywords().isEmpty() ? keywords : options.keywords();
        List<WakeWordHead> used = new ArrayList<>();
        for (String k : selected) {
            WakeWordHead h = headOf.get(k);
            if (h == null) throw unknown(k);
            if (!used.contains(h)) used.add(h);
        }
        used.sort(java.util.Comparator.comparingInt(heads::indexOf));
        FeatureRunner.HeadSet set = headSets.computeIfAbsent(List.copyOf(used), FeatureRunner.HeadSet::new);
        return new OpenWakeWordStream(
                new ScoreStream(runner, set, padEmbedding, BATCH), columns(set, selected), selected, options);
    }

    /** Where each selected keyword's score is in a raw row of the set's outputs. */
    private static OpenWakeWordStream.Column[] columns(FeatureRunner.HeadSet set, List<String> selected) {
        OpenWakeWordStream.Column[] out = new OpenWakeWordStream.Column[selected.size()];
        for (int i = 0; i < out.length; i++) {
            int offset = 0;
            for (WakeWordHead h : set.heads) {
                int label = h.labels.indexOf(selected.get(i));
                if (label >= 0) {
                    int verifier = h.verifier == null
                            ? -1
                            : offset + h.layers.getLast().out();
                    out[i] = new OpenWakeWordStream.Column(offset + h.labelClass[label], verifier, h.verifierThreshold);
                    break;
                }
                offset += h.outputs();
            }
        }
        return out;
    }

    private IllegalArgumentException unknown(String keyword) {
        return new IllegalArgumentException(
                "unknown keyword '" + keyword + "'; this model spots " + String.join(", ", keywords));
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        runner.close();
        heads.forEach(WakeWordHead::close);
        weights.close();
    }
}
