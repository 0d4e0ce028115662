package dev.audioengine.models.basicpitch;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.NoteActivations;
import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteOptions;
import dev.audioengine.model.task.NoteTranscriber;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Basic Pitch as a {@link NoteTranscriber}. Audio is cut as the package's {@code BasicPitch.evaluateModel} cuts it:
 * 3840 zeros (half the overlap) before it, windows of 43844 samples every 36164 (the last zero-padded), 15 frames
 * dropped at each side of every window's 172, the rest laid end to end and cut to {@code floor(samples · 86 / 22050)}
 * frames. Up to {@value #BATCH} windows run in one graph. Thread-safe; runs take turns on the engine. Owns its weights
 * and compiled graphs.
 */
public final class BasicPitchTranscriber implements NoteTranscriber {
    /** Windows per graph run at most: 6.6 s of audio. */
    static final int BATCH = 4;

    private final AudioEngine engine;
    private final BasicPitchWeights weights;
    private final String description;
    private final Map<Integer, Compiled> graphs = new HashMap<>();
    private volatile RunSummary lastSummary;
    private volatile boolean closed;

    private record Compiled(CompiledGraph graph, HostTensor in, List<HostTensor> outs) {}

    BasicPitchTranscriber(AudioEngine engine, BasicPitchWeights weights, String description) {
        this.engine = engine;
        this.weights = weights;
        this.description = description;
    }

    @Override
    public Task task() {
        return Task.NOTES;
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
        return BasicPitchNetwork.SAMPLE_RATE;
    }

    @Override
    public NoteActivations activations(float[] samples, int sampleRate) {
        if (sampleRate != BasicPitchNetwork.SAMPLE_RATE)
            throw new IllegalArgumentException("Basic Pitch runs at " + BasicPitchNetwork.SAMPLE_RATE + " Hz, got "
                    + sampleRate + " Hz; resample the audio first");
        for (int i = 0; i < samples.length; i++)
            if (!Float.isFinite(samples[i])) throw new IllegalArgumentException("sample " + i + " is " + samples[i]);
        int pad = BasicPitchNetwork.OVERLAP_FRAMES * BasicPitchNetwork.HOP / 2;
        long size = (long) samples.length + pad;
        int windows = 0; // tf.signal.frame(..., padEnd = true): a window at every hop that starts inside the signal
        for (long start = 0; start < size; start += BasicPitchNetwork.WINDOW_HOP) windows++;
        int wanted = (int) Math.floor(samples.length * (86.0 / BasicPitchNetwork.SAMPLE_RATE));
        int keep = BasicPitchNetwork.FRAMES - BasicPitchNetwork.OVERLAP_FRAMES,
                drop = BasicPitchNetwork.OVERLAP_FRAMES / 2;
        int frames = Math.min(wanted, windows * keep);
        float[][] contours = new float[frames][], notes = new float[frames][], onsets = new float[frames][];
        float[] in = new float[BATCH * BasicPitchNetwork.WINDOW];
        for (int w0 = 0; w0 < windows && (long) w0 * keep < frames; w0 += BATCH) {
            int n = Math.min(BATCH, windows - w0);
            java.util.Arrays.fill(in, 0f);
            for (int b = 0; b < n; b++) {
                long start = (long) (w0 + b) * BasicPitchNetwork.WINDOW_HOP; // in the zero-prefixed signal
                for (int i = 0; i < BasicPitchNetwork.WINDOW; i++) {
                    long s = start + i - pad;
                    if (s >= 0 && s < samples.length) in[b * BasicPitchNetwork.WINDOW + i] = samples[(int) s];
                }
            }
            float[][] out = run(n, in);
            for (int b = 0; b < n; b++)
                for (int f = 0; f < keep; f++) {
                    int row = (w0 + b) * keep + f;
                    if (row >= frames) break;
                    int src = b * BasicPitchNetwork.FRAMES + drop + f;
                    contours[row] = row(out[0], src, BasicPitchNetwork.CONTOUR_BINS);
                    notes[row] = row(out[1], src, BasicPitchNetwork.NOTE_BINS);
                    onsets[row] = row(out[2], src, BasicPitchNetwork.NOTE_BINS);
                }
        }
        return new NoteActivations(
                contours, notes, onsets, BasicPitchNetwork.SAMPLE_RATE / (double) BasicPitchNetwork.HOP);
    }

    private static float[] row(float[] a, int frame, int width) {
        return java.util.Arrays.copyOfRange(a, frame * width, (frame + 1) * width);
    }

    private float[][] run(int n, float[] in) {
        synchronized (engine) {
            if (closed) throw new IllegalStateException("the transcriber is closed");
            Compiled c = graphs.computeIfAbsent(n, this::compile);
            MemorySegment.copy(in, 0, c.in.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, n * BasicPitchNetwork.WINDOW);
            c.graph.runInto(Map.of(BasicPitchNetwork.AUDIO, c.in), c.outs);
            float[][] out = new float[3][];
            for (int i = 0; i < 3; i++) out[i] = c.outs.get(i).toFloatArray();
            return out;
        }
    }

    private Compiled compile(int n) {
        Graph g = BasicPitchNetwork.build(weights, n);
        CompiledGraph cg = engine.compile(g);
        lastSummary = cg.summary();
        var input = g.inputs().getFirst();
        HostTensor in = HostTensor.allocate(input.dtype(), input.shape());
        List<HostTensor> outs = g.outputs().stream()
                .map(o -> HostTensor.allocate(o.dtype(), o.shape()))
                .toList();
        return new Compiled(cg, in, outs);
    }

    @Override
    public List<NoteEvent> notes(NoteActivations a, NoteOptions options) {
        return NoteDecoding.decode(a.contours(), a.notes(), a.onsets(), options);
    }

    @Override
    public void close() {
        synchronized (engine) {
            if (closed) return;
            closed = true;
            for (Compiled c : graphs.values()) {
                c.graph.close();
                c.in.close();
                c.outs.forEach(HostTensor::close);
            }
            graphs.clear();
            weights.close();
        }
    }
}
