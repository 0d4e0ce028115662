package dev.audioengine.models.silero;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.SpeechAudio;
import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import dev.audioengine.weights.onnx.OnnxModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Silero VAD v5/v6 on an {@link AudioEngine}: weights read from the ONNX file's Constant nodes,
 * the network run on the engine's graph ops. Offline calls batch the encoder over many chunks
 * per graph run; streaming sessions run one chunk at a time. 8 and 16 kHz audio is used as is;
 * resample other rates first. Samples must be finite: a NaN or infinity is an
 * {@link IllegalArgumentException} naming the first one.
 *
 * <p>Thread safety: a SileroVad is thread-safe. {@link #probabilities}, {@link #segments} and
 * {@link #speechSamples} may be called from any number of threads at once; each call borrows a
 * runner (its own compiled graphs, input and output tensors and LSTM state) from a pool inside,
 * creating one when all are busy. Graph runs on one engine take turns (the Backend SPI runs one
 * at a time), so threads sharing an engine share its device; give threads engines of their own to
 * run in parallel. The sessions ({@link #stream}, {@link #offline}) are not thread-safe: one
 * thread feeds a session, and a session of its own per audio stream; sessions of one SileroVad
 * may run on different threads at once. Close the SileroVad after every call and session ended.
 */
public final class SileroVad implements VoiceActivityDetector {
    /**
     * Offline batch: chunks per graph run (about 16 s of 16 kHz audio); bounds memory for long
     * files, and keeps each encoder stage's activations (1-3 MB) in cache: larger batches were
     * slower per chunk (docs/PERFORMANCE-cpu.md, "Figures that were in code comments").
     */
    static final int OFFLINE_BATCH = 512;

    private final AudioEngine engine;
    private final Map<Integer, SileroWeights> weights;
    private final String source, version;
    /** Idle runners per sample rate; a call takes one (or makes one) and gives it back. */
    private final Map<Integer, ConcurrentLinkedQueue<ChunkRunner>> idle = new ConcurrentHashMap<>();

    private final Set<ChunkRunner> all = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private SileroVad(AudioEngine engine, Map<Integer, SileroWeights> weights, String source, String version) {
        this.engine = engine;
        this.weights = weights;
        this.source = source;
        this.version = version;
    }

    /** Loads a Silero VAD v5 or v6 ONNX file; a file of another shape fails naming what it lacks. */
    public static SileroVad load(AudioEngine engine, Path onnx) throws IOException {
        String version = SileroVadFamily.version(onnx);
        try (OnnxModel m = OnnxModel.read(onnx)) {
            return new SileroVad(engine, SileroWeights.fromOnnx(m, onnx.toString()), onnx.toString(), version);
        }
    }

    /** "v5", "v6", or "unknown" for a file of the right shape but another hash. */
    public String version() {
        return version;
    }

    private volatile RunSummary lastSummary;

    private void compiled(RunSummary summary) {
        lastSummary = summary;
    }

    /**
     * Where the most recently compiled graph runs: the backend (and its GEMM path), nodes per
     * backend, any CPU fallback and what it copies; empty before the first run.
     */
    @Override
    public Optional<RunSummary> runSummary() {
        return Optional.ofNullable(lastSummary);
    }

    public String source() {
        return source;
    }

    @Override
    public Task task() {
        return Task.VAD;
    }

    @Override
    public String describe() {
        return "silero_vad " + version + " (" + source + ")";
    }

    @Override
    public List<Integer> sampleRates() {
        return weights.keySet().stream().sorted().toList();
    }

    /** Samples per chunk at this rate (512 at 16 kHz, 256 at 8 kHz). */
    @Override
    public int chunkSize(int sampleRate) {
        return weightsFor(sampleRate).chunk;
    }

    /**
     * One probability per chunk over the whole audio, the last chunk zero-padded, state and
     * context carried from chunk to chunk from zero (what Silero's audio_forward returns).
     */
    @Override
    public float[] probabilities(float[] audio, int sampleRate) {
        try (OfflineSession s = offline(sampleRate, VadOptions.DEFAULTS)) {
            float[] probs = new float[(audio.length + chunkSize(sampleRate) - 1) / chunkSize(sampleRate)];
            float[] first = s.accept(audio).probabilities(), last = s.finish().probabilities();
            System.arraycopy(first, 0, probs, 0, first.length);
            System.arraycopy(last, 0, probs, first.length, last.length);
            return probs;
        }
    }

    /** Probabilities, and speech segments with get_speech_timestamps' semantics, from one pass. */
    @Override
    public Detection detect(float[] audio, int sampleRate, VadOptions options) {
        try (OfflineSession s = offline(sampleRate, options)) {
            OfflineVad.Result first = s.accept(audio), last = s.finish();
            float[] probs = java.util.Arrays.copyOf(
                    first.probabilities(), first.probabilities().length + last.probabilities().length);
            System.arraycopy(last.probabilities(), 0, probs, first.probabilities().length, last.probabilities().length);
            List<SpeechSegment> segments = new ArrayList<>(first.segments());
            segments.addAll(last.segments());
            return new Detection(probs, segments);
        }
    }

    /** Speech segments with get_speech_timestamps' semantics. */
    @Override
    public List<SpeechSegment> segments(float[] audio, int sampleRate, VadOptions options) {
        try (OfflineSession s = offline(sampleRate, options)) {
            List<SpeechSegment> out = new ArrayList<>(s.accept(audio).segments());
            out.addAll(s.finish().segments());
            return out;
        }
    }

    /** The speech alone: the samples of {@link #segments} joined end to end (Silero's collect_chunks). */
    public float[] speechSamples(float[] audio, int sampleRate, VadOptions options) {
        return SpeechAudio.collect(audio, segments(audio, sampleRate, options));
    }

    /**
     * A new offline session at 8 or 16 kHz: audio pushed block by block, batched like
     * {@link #probabilities} with bounded memory; close it when done (its runner returns to the pool).
     */
    @Override
    public OfflineSession offline(int sampleRate, VadOptions options) {
        return new OfflineSession(borrow(sampleRate), options, this::giveBack);
    }

    /** A new streaming session at 8 or 16 kHz; close it when done. */
    @Override
    public StreamingSession stream(int sampleRate, VadOptions options) {
        return new StreamingSession(new ChunkRunner(engine, weightsFor(sampleRate), this::compiled), options);
    }

    private ChunkRunner borrow(int sampleRate) {
        SileroWeights w = weightsFor(sampleRate);
        if (closed) throw new IllegalStateException("this SileroVad is closed");
        ChunkRunner r = idle.computeIfAbsent(sampleRate, k -> new ConcurrentLinkedQueue<>())
                .poll();
        if (r == null) {
            r = new ChunkRunner(engine, w, this::compiled);
            all.add(r);
        }
        return r;
    }

    private void giveBack(ChunkRunner r) {
        if (closed) {
            all.remove(r);
            r.close();
        } else {
            idle.get(r.weights().sampleRate).add(r);
        }
    }

    private SileroWeights weightsFor(int sampleRate) {
        SileroWeights w = weights.get(sampleRate);
        if (w == null) {
            throw new IllegalArgumentException(
                    "Silero VAD runs at 8000 or 16000 Hz, got " + sampleRate + " Hz; resample the audio first");
        }
        return w;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (ChunkRunner r : all) r.close();
        all.clear();
        idle.clear();
        weights.values().forEach(SileroWeights::close);
    }
}
