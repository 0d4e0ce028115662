package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One decoder's mutable state: its caches on the device, its compiled step graph bound to them, the encoder graphs
 * it compiled per window length (the convolutions and the stem's GroupNorm depend on the length, so the encoder is
 * compiled per length and the last few kept), and the small host tensors a step feeds. Not thread-safe: a recognizer
 * lends each caller a session of its own.
 */
final class DecodingSession implements AutoCloseable {
    /** Encoder graphs kept per session, least recently used out: a CLI run over many windows recompiles, a server's steady state does not. */
    static final int ENCODERS_KEPT = 8;

    private final AudioEngine engine;
    private final MoonshineWeights weights;
    final DecoderCache cache;
    private final CompiledGraph step;
    private CompiledGraph stepWithLogits;
    private final Map<Integer, CompiledGraph> encoders = new LinkedHashMap<>(16, 0.75f, true);
    private final HostTensor token = HostTensor.allocate(DType.I32, Shape.of(1, 1));
    private final HostTensor position = HostTensor.allocate(DType.I32, Shape.of(1));
    private final HostTensor selfLength = HostTensor.allocate(DType.I32, Shape.of(1));
    private final HostTensor crossLength = HostTensor.allocate(DType.I32, Shape.of(1));
    private final HostTensor zero = HostTensor.ofInts(Shape.of(1), 0);
    private final HostTensor next = HostTensor.allocate(DType.I32, Shape.of(1, 1));
    private final Map<String, HostTensor> stepInputs;
    private int frames; // encoder frames of the current window
    long compiledEncoders, steps;

    DecodingSession(AudioEngine engine, MoonshineWeights weights, int selfCapacity, int crossCapacity) {
        this.engine = engine;
        this.weights = weights;
        this.cache = new DecoderCache(engine, weights.config(), 1, selfCapacity, crossCapacity);
        try {
            this.step = engine.compile(
                    MoonshineNetwork.step(weights.config(), weights.decoder, 1, 1, selfCapacity, crossCapacity, false),
                    cache.all());
        } catch (RuntimeException e) {
            cache.close();
            throw e;
        }
        stepInputs = Map.of(
                MoonshineNetwork.TOKEN,
                token,
                MoonshineNetwork.POSITION,
                position,
                MoonshineNetwork.SELF_LENGTH,
                selfLength,
                MoonshineNetwork.CROSS_LENGTH,
                crossLength);
    }

    /** The longest window this session can hear, in samples. */
    int maxSamples() {
        return MoonshineConfig.maxSamples(cache.crossCapacity);
    }

    /** Runs the encoder on a window and fills the cross caches; returns the encoder states [1, T, D] when asked. */
    HostTensor encode(float[] samples, int from, int length, boolean keepStates) {
        CompiledGraph enc = encoders.get(length);
        if (enc == null) {
            synchronized (engine) { // compiling takes its turn even where runs overlap (AudioEngine.runLock)
                enc = engine.compile(
                        MoonshineNetwork.encoder(
                                weights.config(), weights.encoder, weights.decoder, length, 1, cache.crossCapacity),
                        cache.cross());
                compiledEncoders++;
                encoders.put(length, enc);
                if (encoders.size() > ENCODERS_KEPT) {
                    var eldest = encoders.entrySet().iterator().next();
                    eldest.getValue().close();
                    encoders.remove(eldest.getKey());
                }
            }
        }
        float[] window = from == 0 && length == samples.length
                ? samples
                : java.util.Arrays.copyOfRange(samples, from, from + length);
        try (HostTensor audio = HostTensor.ofFloats(Shape.of(1, 1, length), window)) {
            frames = Math.toIntExact(MoonshineConfig.frames(length));
            CompiledGraph.Outputs out = enc.run(Map.of(MoonshineNetwork.AUDIO, audio, MoonshineNetwork.SLOT, zero));
            if (keepStates) return out.get(0);
            out.close();
            return null;
        }
    }

    /** Greedy decoding from BOS over the window last encoded: at most {@code maxTokens}, stopped at EOS or a loop. */
    List<Integer> greedy(int maxTokens) {
        return greedy(maxTokens, true);
    }

    /** With {@code stop} false: exactly min(maxTokens, capacity) steps, EOS and loops ignored (timing on random weights). */
    List<Integer> greedy(int maxTokens, boolean stop) {
        int limit = Math.min(maxTokens, cache.selfCapacity);
        List<Integer> out = new ArrayList<>();
        int current = MoonshineConfig.BOS;
        for (int i = 0; i < limit; i++) {
            setStep(current, i);
            step.runInto(stepInputs, List.of(next));
            steps++;
            int t = next.getInt(0);
            if (stop && t == MoonshineConfig.EOS) break;
            out.add(t);
            int cut = stop ? RepetitionGuard.loopCut(out) : -1;
            if (cut >= 0) {
                out.subList(cut, out.size()).clear();
                break;
            }
            current = t;
        }
        return out;
    }

    /**
     * Teacher forcing: feeds {@code tokens} (starting with BOS) one step at a time over the window last encoded and
     * returns the logits after each, [tokens.length × V].
     */
    float[] logits(int[] tokens) {
        if (tokens.length > cache.selfCapacity)
            throw new IllegalArgumentException(tokens.length + " tokens exceed the cache of " + cache.selfCapacity);
        if (stepWithLogits == null) {
            synchronized (engine) { // compiling takes its turn even where runs overlap
                stepWithLogits = engine.compile(
                        MoonshineNetwork.step(
                                weights.config(), weights.decoder, 1, 1, cache.selfCapacity, cache.crossCapacity, true),
                        cache.all());
            }
        }
        int v = weights.config().vocabulary();
        float[] all = new float[tokens.length * v];
        try (HostTensor logits = HostTensor.allocate(DType.F32, Shape.of(1, 1, v))) {
            for (int i = 0; i < tokens.length; i++) {
                setStep(tokens[i], i);
                stepWithLogits.runInto(stepInputs, List.of(next, logits));
                System.arraycopy(logits.toFloatArray(), 0, all, i * v, v);
            }
        }
        return all;
    }

    RunSummary stepSummary() {
        return step.summary();
    }

    private void setStep(int tokenId, int pos) {
        token.data().set(ValueLayout.JAVA_INT, 0, tokenId);
        position.data().set(ValueLayout.JAVA_INT, 0, pos);
        selfLength.data().set(ValueLayout.JAVA_INT, 0, pos + 1);
        crossLength.data().set(ValueLayout.JAVA_INT, 0, frames);
    }

    @Override
    public void close() {
        encoders.values().forEach(CompiledGraph::close);
        encoders.clear();
        if (stepWithLogits != null) stepWithLogits.close();
        step.close();
        cache.close();
        for (HostTensor t : List.of(token, position, selfLength, crossLength, zero, next)) t.close();
    }
}
