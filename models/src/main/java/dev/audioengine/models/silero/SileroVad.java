package dev.audioengine.models.silero;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.weights.onnx.OnnxModel;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Silero VAD v5/v6 on an {@link AudioEngine}: weights read from the ONNX file's Constant nodes,
 * the network run on the engine's graph ops. Offline calls batch the encoder over many chunks
 * per graph run; streaming sessions run one chunk at a time. 8 and 16 kHz audio is used as is;
 * resample other rates first.
 */
public final class SileroVad implements VoiceActivityDetector {
    /**
     * Offline batch: chunks per graph run (about 16 s of 16 kHz audio); bounds memory for long
     * files, and keeps each encoder stage's activations (1-3 MB) in cache: 2048 chunks per run
     * measured 10-15 % slower per chunk on 60 s of audio (bench vad: 26-27 against 23.7 us).
     */
    static final int OFFLINE_BATCH = 512;

    private final AudioEngine engine;
    private final Map<Integer, SileroWeights> weights;
    private final String source, version;
    private final Map<Integer, ChunkRunner> offline = new java.util.HashMap<>();

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
    public String version() { return version; }

    private volatile RunSummary lastSummary;

    private void compiled(RunSummary summary) { lastSummary = summary; }

    /**
     * Where the most recently compiled graph runs: the backend (and its GEMM path), nodes per
     * backend, any CPU fallback and what it copies; empty before the first run.
     */
    @Override public Optional<RunSummary> runSummary() { return Optional.ofNullable(lastSummary); }

    public String source() { return source; }

    @Override public Task task() { return Task.VAD; }

    @Override public String describe() { return "silero_vad " + version + " (" + source + ")"; }

    @Override public List<Integer> sampleRates() { return weights.keySet().stream().sorted().toList(); }

    /** Samples per chunk at this rate (512 at 16 kHz, 256 at 8 kHz). */
    @Override public int chunkSize(int sampleRate) { return weightsFor(sampleRate).chunk; }

    /**
     * One probability per chunk over the whole audio, the last chunk zero-padded, state and
     * context carried from chunk to chunk from zero (what Silero's audio_forward returns).
     */
    @Override public float[] probabilities(float[] audio, int sampleRate) {
        SileroWeights w = weightsFor(sampleRate);
        ChunkRunner r = offline.computeIfAbsent(sampleRate, k -> new ChunkRunner(engine, w, this::compiled));
        r.resetState();
        int chunk = w.chunk, ctx = w.context, len = ctx + chunk;
        int chunks = (audio.length + chunk - 1) / chunk;
        float[] probs = new float[chunks];
        float[] windows = new float[Math.min(chunks, OFFLINE_BATCH) * len];
        for (int first = 0; first < chunks; first += OFFLINE_BATCH) {
            int n = Math.min(OFFLINE_BATCH, chunks - first);
            java.util.Arrays.fill(windows, 0f);
            for (int j = 0; j < n; j++) {
                int start = (first + j) * chunk - ctx; // the window begins with the previous chunk's tail
                int from = Math.max(0, start), to = Math.min(audio.length, start + len); // zeros outside the audio
                if (to > from) System.arraycopy(audio, from, windows, j * len + (from - start), to - from);
            }
            r.run(windows, 0, n, probs, first);
        }
        return probs;
    }

    /** Probabilities, and speech segments with get_speech_timestamps' semantics. */
    @Override public Detection detect(float[] audio, int sampleRate, VadOptions options) {
        float[] probs = probabilities(audio, sampleRate);
        return new Detection(probs, SpeechTimestamps.segments(probs, chunkSize(sampleRate), audio.length, sampleRate, options));
    }

    /** A new streaming session at 8 or 16 kHz; close it when done. */
    @Override public StreamingSession stream(int sampleRate, VadOptions options) {
        return new StreamingSession(new ChunkRunner(engine, weightsFor(sampleRate), this::compiled), options);
    }

    private SileroWeights weightsFor(int sampleRate) {
        SileroWeights w = weights.get(sampleRate);
        if (w == null) {
            throw new IllegalArgumentException("Silero VAD runs at 8000 or 16000 Hz, got " + sampleRate + " Hz; resample the audio first");
        }
        return w;
    }

    @Override
    public void close() {
        offline.values().forEach(ChunkRunner::close);
        weights.values().forEach(SileroWeights::close);
    }
}
