package dev.audioengine.models.openwakeword;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.HostTensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs openWakeWord's three graphs ({@link OpenWakeWordNetwork}) on an engine, compiling each once per batch size
 * and reusing its input and output tensors. Runs on one engine take turns (the Backend SPI runs one graph at a time),
 * so every call holds the engine's lock. Owns its compiled graphs, not the weights.
 */
final class FeatureRunner implements AutoCloseable {
    private final AudioEngine engine;
    private final OpenWakeWordWeights weights;

    /**
     * Heads run together in one graph: {@code window} embeddings per frame in (the longest head window), {@code outputs}
     * scores per frame out (the sum of {@link WakeWordHead#outputs()}). Compiled graphs are keyed by the set's identity.
     */
    static final class HeadSet {
        final List<WakeWordHead> heads;
        final int window, outputs;

        HeadSet(List<WakeWordHead> heads) {
            if (heads.isEmpty()) throw new IllegalArgumentException("no wake word head to run");
            this.heads = List.copyOf(heads);
            window = heads.stream().mapToInt(h -> h.window).max().orElseThrow();
            outputs = heads.stream().mapToInt(WakeWordHead::outputs).sum();
        }
    }

    private final Consumer<RunSummary> compiled;
    private final Map<Key, Compiled> graphs = new HashMap<>();

    private record Key(String graph, int n, int samples, HeadSet heads) {}

    private record Compiled(CompiledGraph graph, HostTensor in, Map<String, HostTensor> inputs, HostTensor out) {}

    /** {@link OpenWakeWordNetwork#embeddingStrip}: rows and caches in, embeddings and next caches out. */
    private record Strip(
            CompiledGraph graph,
            HostTensor rows,
            HostTensor[] caches,
            Map<String, HostTensor> inputs,
            List<HostTensor> outputs) {}

    private final Map<Integer, Strip> strips = new HashMap<>();
    private float[][] seed;

    FeatureRunner(AudioEngine engine, OpenWakeWordWeights weights, Consumer<RunSummary> compiled) {
        this.engine = engine;
        this.weights = weights;
        this.compiled = compiled;
    }

    /** Feature frames [n, frames(samples), 32] of n inputs of {@code samples} each, laid end to end from offset 0. */
    void mel(float[] windows, int n, int samples, float[] features) {
        run(new Key("mel", n, samples, null), windows, n * samples, features);
    }

    /** Embeddings [n, 96] of n feature windows [n, 76, 32]. */
    void embed(float[] windows, int n, float[] embeddings) {
        run(
                new Key("embedding", n, 0, null),
                windows,
                n * OpenWakeWordNetwork.EMBEDDING_WINDOW * OpenWakeWordNetwork.MEL_BINS,
                embeddings);
    }

    /**
     * Embeddings [k, 96] of k windows each {@link OpenWakeWordNetwork#STEP} rows after the one before, from the new
     * rows [k·8, 32] and the caches the window before left, which this replaces with the last window's.
     */
    void embedStrip(float[] rows, int k, float[][] caches, float[] embeddings) {
        synchronized (engine) {
            Strip st = strips.computeIfAbsent(k, this::compileStrip);
            MemorySegment.copy(rows, 0, st.rows.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, rows.length);
            for (int i = 0; i < caches.length; i++)
                MemorySegment.copy(
                        caches[i], 0, st.caches[i].data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, caches[i].length);
            st.graph.runInto(st.inputs, st.outputs);
            HostTensor e = st.outputs.getFirst();
            MemorySegment.copy(e.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, embeddings, 0, (int) e.elements());
            for (int i = 0; i < caches.length; i++)
                MemorySegment.copy(
                        st.outputs.get(i + 1).data(),
                        ValueLayout.JAVA_FLOAT_UNALIGNED,
                        0,
                        caches[i],
                        0,
                        caches[i].length);
        }
    }

    /**
     * The caches of {@link #embedStrip} before a stream's first chunk: those of a window of 76 feature rows of ones
     * (openWakeWord's initial buffer). Computed once on 128 rows of ones, more than any cache's receptive field, so
     * the zeros they start from are gone; the caller gets a copy.
     */
    float[][] seedCaches() {
        synchronized (engine) {
            if (seed == null) {
                int k = 16;
                Strip st = strips.computeIfAbsent(k, this::compileStrip);
                float[][] c = new float[st.caches.length][];
                for (int i = 0; i < c.length; i++) c[i] = new float[(int) st.caches[i].elements()];
                float[] ones = new float[k * OpenWakeWordNetwork.STEP * OpenWakeWordNetwork.MEL_BINS];
                Arrays.fill(ones, 1f);
                embedStrip(ones, k, c, new float[k * OpenWakeWordNetwork.EMBEDDING_DIM]);
                seed = c;
            }
            float[][] copy = new float[seed.length][];
            for (int i = 0; i < seed.length; i++) copy[i] = seed[i].clone();
            return copy;
        }
    }

    private Strip compileStrip(int k) {
        Graph g = OpenWakeWordNetwork.embeddingStrip(weights, k);
        CompiledGraph cg = engine.compile(g);
        compiled.accept(cg.summary());
        Map<String, HostTensor> inputs = new HashMap<>();
        for (var t : g.inputs()) inputs.put(t.name(), HostTensor.allocate(t.dtype(), t.shape()));
        HostTensor[] caches = new HostTensor[inputs.size() - 1];
        for (int i = 0; i < caches.length; i++) caches[i] = inputs.get(OpenWakeWordNetwork.cache(i));
        List<HostTensor> outs = new ArrayList<>();
        for (var t : g.outputs()) outs.add(HostTensor.allocate(t.dtype(), t.shape()));
        return new Strip(cg, inputs.get(OpenWakeWordNetwork.FEATURES), caches, inputs, outs);
    }

    /** Raw outputs [n, set.outputs] of a set of heads on n embedding windows [n, set.window, 96]. */
    void heads(HeadSet set, float[] windows, int n, float[] scores) {
        run(new Key("heads", n, 0, set), windows, n * set.window * OpenWakeWordNetwork.EMBEDDING_DIM, scores);
    }

    private void run(Key key, float[] in, int count, float[] out) {
        synchronized (engine) {
            Compiled cg = graphs.computeIfAbsent(key, this::compile);
            MemorySegment.copy(in, 0, cg.in.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, count);
            cg.graph.runInto(cg.inputs, List.of(cg.out));
            MemorySegment.copy(cg.out.data(), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, out, 0, (int) cg.out.elements());
        }
    }

    private Compiled compile(Key k) {
        Graph g = switch (k.graph) {
            case "mel" -> OpenWakeWordNetwork.mel(weights, k.n, k.samples);
            case "embedding" -> OpenWakeWordNetwork.embedding(weights, k.n);
            case "heads" -> OpenWakeWordNetwork.heads(k.heads.heads, k.n, k.heads.window);
            default -> throw new IllegalArgumentException(k.graph);
        };
        CompiledGraph cg = engine.compile(g);
        compiled.accept(cg.summary());
        var input = g.inputs().getFirst();
        HostTensor in = HostTensor.allocate(input.dtype(), input.shape());
        var o = g.outputs().getFirst();
        HostTensor out = HostTensor.allocate(o.dtype(), o.shape());
        return new Compiled(cg, in, Map.of(input.name(), in), out);
    }

    @Override
    public void close() {
        synchronized (engine) {
            for (Compiled c : graphs.values()) {
                c.graph.close();
                c.in.close();
                c.out.close();
            }
            graphs.clear();
            for (Strip st : strips.values()) {
                st.graph.close();
                st.inputs.values().forEach(HostTensor::close);
                st.outputs.forEach(HostTensor::close);
            }
            strips.clear();
        }
    }
}
