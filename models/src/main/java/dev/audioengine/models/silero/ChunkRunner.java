package dev.audioengine.models.silero;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.RunSummary;
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
 * reusing its input tensors. The LSTM state lives here, as h and c [128] each.
 */
final class ChunkRunner implements AutoCloseable {
    private final AudioEngine engine;
    private final SileroWeights weights;
    private final Map<Integer, Compiled> graphs = new HashMap<>();
    final float[] h = new float[SileroWeights.HIDDEN], c = new float[SileroWeights.HIDDEN];

    /** One batch size's graph with its input and output tensors, reused run after run (no allocation per chunk). */
    private record Compiled(CompiledGraph graph, HostTensor window, HostTensor h0, HostTensor c0, Map<String, HostTensor> inputs,
                            HostTensor out) {}

    private final Consumer<RunSummary> compiled;

    /** {@code compiled} hears the run summary of every graph this runner compiles. */
    ChunkRunner(AudioEngine engine, SileroWeights weights, Consumer<RunSummary> compiled) {
        this.engine = engine;
        this.weights = weights;
        this.compiled = compiled;
    }

    SileroWeights weights() { return weights; }

    void resetState() {
        java.util.Arrays.fill(h, 0);
        java.util.Arrays.fill(c, 0);
    }

    /**
     * Runs n windows of (context + chunk) samples laid end to end in {@code windows} from
     * {@code offset}, carrying the state; writes n probabilities to {@code probs} at {@code at}.
     */
    void run(float[] windows, int offset, int n, float[] probs, int at) {
        synchronized (engine) { // the Backend SPI runs one graph at a time: runners sharing an engine take turns
            runLocked(windows, offset, n, probs, at);
        }
    }

    private void runLocked(float[] windows, int offset, int n, float[] probs, int at) {
        Compiled cg = graphs.computeIfAbsent(n, this::compile);
        int len = weights.context + weights.chunk;
        MemorySegment.copy(windows, offset, cg.window.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, n * len);
        MemorySegment.copy(h, 0, cg.h0.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, h.length);
        MemorySegment.copy(c, 0, cg.c0.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, c.length);
        cg.graph.runInto(cg.inputs, List.of(cg.out));
        MemorySegment o = cg.out.data();
        MemorySegment.copy(o, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, probs, at, n);
        MemorySegment.copy(o, ValueLayout.JAVA_FLOAT_UNALIGNED, 4L * n, h, 0, h.length);
        MemorySegment.copy(o, ValueLayout.JAVA_FLOAT_UNALIGNED, 4L * (n + h.length), c, 0, c.length);
    }

    private Compiled compile(int n) {
        CompiledGraph g = engine.compile(SileroGraph.build(weights, n));
        compiled.accept(g.summary());
        HostTensor window = HostTensor.allocate(dev.audioengine.api.tensor.DType.F32, Shape.of(n, 1, weights.context + weights.chunk));
        HostTensor h0 = HostTensor.allocate(dev.audioengine.api.tensor.DType.F32, Shape.of(1, SileroWeights.HIDDEN));
        HostTensor c0 = HostTensor.allocate(dev.audioengine.api.tensor.DType.F32, Shape.of(1, SileroWeights.HIDDEN));
        var o = g.graph().outputs().getFirst();
        HostTensor out = HostTensor.allocate(o.dtype(), o.shape());
        return new Compiled(g, window, h0, c0, Map.of(SileroGraph.WINDOW, window, SileroGraph.H0, h0, SileroGraph.C0, c0), out);
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
            cg.h0.close();
            cg.c0.close();
            cg.out.close();
        }
        graphs.clear();
    }
}
