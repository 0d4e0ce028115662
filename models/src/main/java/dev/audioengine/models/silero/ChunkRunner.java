package dev.audioengine.models.silero;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.PersistentTensor;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs windows of one sample rate through the model, compiling one graph per batch size and
 * reusing its input tensors. The LSTM state is a persistent tensor on the engine's backend that
 * every batch size's graph reads and overwrites in place: it never visits the host per chunk.
 */
final class ChunkRunner implements AutoCloseable {
    private final AudioEngine engine;
    private final SileroWeights weights;
    private final Map<Integer, Compiled> graphs = new HashMap<>();
    private final PersistentTensor state;

    /** One batch size's graph with its input and output tensors, reused run after run (no allocation per chunk). */
    private record Compiled(CompiledGraph graph, HostTensor window, Map<String, HostTensor> inputs, HostTensor out) {}

    private final Consumer<RunSummary> compiled;

    /** {@code compiled} hears the run summary of every graph this runner compiles. */
    ChunkRunner(AudioEngine engine, SileroWeights weights, Consumer<RunSummary> compiled) {
        this.engine = engine;
        this.weights = weights;
        this.compiled = compiled;
        synchronized (engine) { // allocating device memory takes its turn too
            this.state = engine.state(SileroNetwork.STATE, DType.F32, SileroNetwork.STATE_SHAPE);
        }
    }

    SileroWeights weights() {
        return weights;
    }

    /** Zeroes the state; an upload to the device, so it takes its turn with the runs of other runners on this engine. */
    void resetState() {
        synchronized (engine.runLock(this)) {
            state.zero();
        }
    }

    /**
     * Runs n windows of (context + chunk) samples laid end to end in {@code windows} from
     * {@code offset}, carrying the state; writes n probabilities to {@code probs} at {@code at}.
     */
    void run(float[] windows, int offset, int n, float[] probs, int at) {
        Compiled cg = graphs.get(n);
        if (cg == null) {
            synchronized (engine) { // compiling takes its turn on the engine even where runs overlap
                cg = graphs.computeIfAbsent(n, this::compile);
            }
        }
        // the Backend SPI runs one graph at a time: runners sharing an engine take turns, unless it was opened for
        // concurrent runs (AudioEngine.runLock), where this runner's own graphs and state are its alone
        synchronized (engine.runLock(this)) {
            runLocked(cg, windows, offset, n, probs, at);
        }
    }

    private void runLocked(Compiled cg, float[] windows, int offset, int n, float[] probs, int at) {
        int len = weights.context + weights.chunk;
        MemorySegment.copy(windows, offset, cg.window.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, n * len);
        cg.graph.runInto(cg.inputs, List.of(cg.out));
        MemorySegment.copy(cg.out.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, probs, at, n);
    }

    private Compiled compile(int n) {
        CompiledGraph g = engine.compile(SileroNetwork.build(weights, n), state);
        compiled.accept(g.summary());
        HostTensor window = HostTensor.allocate(DType.F32, Shape.of(n, 1, weights.context + weights.chunk));
        var o = g.graph().outputs().getFirst();
        HostTensor out = HostTensor.allocate(o.dtype(), o.shape());
        return new Compiled(g, window, Map.of(SileroNetwork.WINDOW, window), out);
    }

    @Override
    public void close() {
        synchronized (engine) {
            closeLocked();
        }
    }

    private void closeLocked() {
        for (Compiled cg : graphs.values()) {
            cg.graph.close();
            cg.window.close();
            cg.out.close();
        }
        graphs.clear();
        state.close();
    }
}
