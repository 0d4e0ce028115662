package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.model.task.BatchStats;
import dev.audioengine.model.task.Batching;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Moonshine on an engine: the weights, the tokenizer, and a pool of decoding sessions (each with its own caches and
 * compiled graphs) lent out one per call, so concurrent callers never share mutable state. Sessions are sized by the
 * longest window they must hear; a pool is kept per size. Runs take turns on the engine (the backend runs one graph
 * at a time), or overlap, one per session, on an engine opened for concurrent runs ({@link AudioEngine#runLock}).
 */
public final class MoonshineModel implements AutoCloseable {
    /** What one window decoded to. */
    public record Decoded(List<Integer> tokens, String text, int frames) {}

    private record Size(int crossFrames, int selfTokens) {}

    private final AudioEngine engine;
    private final MoonshineWeights weights;
    private final MoonshineTokenizer tokenizer;
    private final Map<Size, Deque<DecodingSession>> idle = new HashMap<>();
    private final Map<Size, BatchDecoder> batches = new HashMap<>();
    private volatile Batching batching = Batching.NONE;
    private volatile boolean aloneWhenIdle = true;
    private volatile RunSummary summary;
    private boolean closed;

    public MoonshineModel(AudioEngine engine, MoonshineWeights weights, MoonshineTokenizer tokenizer) {
        this.engine = engine;
        this.weights = weights;
        this.tokenizer = tokenizer;
    }

    /** The capabilities Moonshine's graphs branch on: fused attention (else matmul-softmax-matmul) and BF16 weights (else F32, for float checkpoints). */
    public static final java.util.Set<dev.audioengine.api.capability.Capability> USES = java.util.Set.of(
            dev.audioengine.api.capability.Capability.FUSED_ATTENTION,
            dev.audioengine.api.capability.Capability.BF16_WEIGHTS);

    /**
     * Reads a checkpoint onto the engine, the lowering and the weight type chosen from the engine's effective set.
     * {@code pinnedTokenizer} (llama-tokenizer.js) is used when the checkpoint brings no tokenizer.json.
     */
    public static MoonshineModel load(
            AudioEngine engine, MoonshineCheckpoint checkpoint, java.nio.file.Path pinnedTokenizer)
            throws java.io.IOException {
        return load(
                engine, checkpoint, pinnedTokenizer, defaultWeightType(checkpoint, engine.effectiveCapabilities(USES)));
    }

    /**
     * The projections' weight type when the caller names none. moonshine-js's files hold 8-bit weights (one scale per
     * tensor): they stay 8-bit as Q8_0 (one scale per 32 values, at least as fine), which reads a quarter of F32's
     * bytes per decoder step, the step's whole cost. A float checkpoint runs in BF16 where the backend has verified
     * BF16_WEIGHTS, else F32.
     */
    static dev.audioengine.api.tensor.DType defaultWeightType(
            MoonshineCheckpoint checkpoint, java.util.Set<dev.audioengine.api.capability.Capability> effective) {
        if (checkpoint.kind() == MoonshineCheckpoint.Kind.ONNX_EXPORT) return dev.audioengine.api.tensor.DType.Q8_0;
        return effective.contains(dev.audioengine.api.capability.Capability.BF16_WEIGHTS)
                ? dev.audioengine.api.tensor.DType.BF16
                : dev.audioengine.api.tensor.DType.F32;
    }

    /** As {@link #load(AudioEngine, MoonshineCheckpoint, java.nio.file.Path)} with the projections' weight type given. */
    public static MoonshineModel load(
            AudioEngine engine,
            MoonshineCheckpoint checkpoint,
            java.nio.file.Path pinnedTokenizer,
            dev.audioengine.api.tensor.DType weightType)
            throws java.io.IOException {
        var effective = engine.effectiveCapabilities(USES);
        MoonshineTokenizer tokenizer = checkpoint.tokenizer() != null
                ? MoonshineTokenizer.fromTokenizerJson(checkpoint.tokenizer())
                : MoonshineTokenizer.fromLlamaTokenizerJs(pinnedTokenizer);
        var prepared = dev.audioengine.blocks.weights.PreparedWeights.userCache();
        var encoder = dev.audioengine.blocks.weights.WeightStore.open(checkpoint.encoder(), weightType, prepared);
        var decoder = checkpoint.kind() == MoonshineCheckpoint.Kind.TRANSFORMERS
                ? encoder
                : dev.audioengine.blocks.weights.WeightStore.open(checkpoint.decoder(), weightType, prepared);
        try {
            MoonshineLayout layout = checkpoint.kind() == MoonshineCheckpoint.Kind.TRANSFORMERS
                    ? MoonshineLayout.TRANSFORMERS
                    : MoonshineLayout.ONNX_EXPORT;
            MoonshineConfig config = checkpoint.config() != null
                    ? checkpoint.config()
                    : MoonshineCheckpoint.releasedSize(
                            encoder.scope().tensor("conv1.weight").shape().dim(0), checkpoint.encoder());
            MoonshineModel model = new MoonshineModel(
                    engine, MoonshineWeights.read(config, layout, encoder, decoder, effective), tokenizer);
            encoder.keepPrepared();
            decoder.keepPrepared();
            return model;
        } catch (RuntimeException | java.io.IOException e) {
            decoder.close();
            encoder.close();
            if (e instanceof IllegalArgumentException iae) {
                throw new dev.audioengine.model.ModelFormatException(
                        checkpoint.encoder().getParent() + " is not a Moonshine model this family can read: "
                                + iae.getMessage(),
                        iae);
            }
            throw e;
        }
    }

    MoonshineWeights weightsForProfiling() {
        return weights;
    }

    /** The weights (package tests build graphs of their own on them). */
    MoonshineWeights weights() {
        return weights;
    }

    public MoonshineConfig config() {
        return weights.config();
    }

    public MoonshineTokenizer tokenizer() {
        return tokenizer;
    }

    public Optional<RunSummary> runSummary() {
        return Optional.ofNullable(summary);
    }

    /**
     * Decodes one window greedily: at most {@code maxTokens} tokens, stopped at EOS or a repetition loop.
     * {@code maxWindowSamples} sizes the session (windows of up to that length share sessions).
     */
    public Decoded decode(float[] samples, int from, int length, int maxTokens, int maxWindowSamples) {
        return decode(samples, from, length, maxTokens, maxWindowSamples, maxTokens);
    }

    /**
     * As {@link #decode(float[], int, int, int, int)}; {@code maxWindowTokens}, the token limit of the longest window,
     * sizes the self-attention caches of a batch (windows of every length share one batch).
     */
    public Decoded decode(
            float[] samples, int from, int length, int maxTokens, int maxWindowSamples, int maxWindowTokens) {
        if (length < 0 || from < 0 || from + length > samples.length)
            throw new IndexOutOfBoundsException(from + "+" + length + " of " + samples.length);
        if (length > maxWindowSamples)
            throw new IllegalArgumentException(
                    "a window of " + length + " samples is longer than the " + maxWindowSamples + " allowed");
        if (MoonshineConfig.frames(length) < 1 || maxTokens < 1) return new Decoded(List.of(), "", 0);
        if (batching.maxBatch() > 1) {
            BatchDecoder b = batch(maxWindowSamples, Math.max(maxTokens, maxWindowTokens));
            if (!aloneWhenIdle || !b.tryLone()) {
                List<Integer> tokens = b.decode(samples, from, length, maxTokens);
                return new Decoded(tokens, tokenizer.decode(tokens), (int) MoonshineConfig.frames(length));
            }
            long start = System.nanoTime();
            try {
                return alone(samples, from, length, maxTokens, maxWindowSamples);
            } finally {
                b.endLone(System.nanoTime() - start);
            }
        }
        return alone(samples, from, length, maxTokens, maxWindowSamples);
    }

    /** One window on a session of its own: encoded, then decoded greedily, one token per step. */
    private Decoded alone(float[] samples, int from, int length, int maxTokens, int maxWindowSamples) {
        DecodingSession s = borrow(maxWindowSamples, maxTokens);
        try {
            List<Integer> tokens;
            synchronized (engine.runLock(s)) { // the engine, or the session where runs overlap
                s.encode(samples, from, length, false);
                tokens = s.greedy(maxTokens);
            }
            summary = s.stepSummary();
            return new Decoded(tokens, tokenizer.decode(tokens), (int) MoonshineConfig.frames(length));
        } finally {
            giveBack(s);
        }
    }

    /**
     * For speed measurements on random weights, where EOS comes at random: encodes the window and decodes exactly
     * {@code tokens} steps, ignoring EOS and loops (as transformers' generate() with min_new_tokens = max_new_tokens).
     */
    public List<Integer> decodeExactly(float[] samples, int tokens) {
        DecodingSession s = borrow(samples.length, tokens);
        try {
            synchronized (engine.runLock(s)) {
                s.encode(samples, 0, samples.length, false);
                return s.greedy(tokens, false);
            }
        } finally {
            giveBack(s);
        }
    }

    /** The encoder's states for a window [1, T, D] (tests and parity checks); the caller closes the tensor. */
    public HostTensor encoderStates(float[] samples) {
        DecodingSession s = borrow(samples.length, 8);
        try {
            synchronized (engine.runLock(s)) {
                return s.encode(samples, 0, samples.length, true);
            }
        } finally {
            giveBack(s);
        }
    }

    /** Teacher forcing over a window: the logits after each of {@code tokens} (BOS first), [tokens.length × V]. */
    public float[] teacherForcedLogits(float[] samples, int[] tokens) {
        DecodingSession s = borrow(samples.length, tokens.length);
        try {
            synchronized (engine.runLock(s)) {
                s.encode(samples, 0, samples.length, false);
                return s.logits(tokens);
            }
        } finally {
            giveBack(s);
        }
    }

    /**
     * Decodes the windows of concurrent callers together from now on (see {@link Batching}); {@link Batching#NONE}
     * goes back to one window at a time. Batches already made keep their size.
     */
    public void batching(Batching batching) {
        this.batching = java.util.Objects.requireNonNull(batching, "batching");
    }

    /**
     * Whether a window that finds the batch idle decodes alone, as without batching (the default), or through the
     * batch's step graphs anyway (for tests of the batch's one-sequence step).
     */
    void aloneWhenIdle(boolean alone) {
        this.aloneWhenIdle = alone;
    }

    public Batching batching() {
        return batching;
    }

    /** The figures of every batch this model has made, summed. */
    public synchronized BatchStats batchStats() {
        BatchStats sum = BatchStats.NONE;
        for (BatchDecoder b : batches.values()) sum = sum.plus(b.stats());
        return sum;
    }

    /** The batch for windows of up to {@code maxWindowSamples} and {@code maxWindowTokens}, made on first use. */
    private synchronized BatchDecoder batch(int maxWindowSamples, int maxWindowTokens) {
        if (closed) throw new IllegalStateException("the Moonshine model is closed");
        Size size = size(maxWindowSamples, maxWindowTokens);
        BatchDecoder b = batches.get(size);
        if (b == null) {
            int slots =
                    batching.slots(DecoderCache.bytesPerSlot(weights.config(), size.selfTokens(), size.crossFrames()));
            synchronized (engine) {
                b = new BatchDecoder(engine, weights, slots, size.selfTokens(), size.crossFrames());
            }
            batches.put(size, b);
        }
        return b;
    }

    /** Sizes rounded up so that nearby requests share sessions and batches: cross frames to 64, tokens to 32. */
    private static Size size(int maxWindowSamples, int maxTokens) {
        int frames = Math.toIntExact(Math.max(1, MoonshineConfig.frames(maxWindowSamples)));
        return new Size((frames + 63) / 64 * 64, (maxTokens + 1 + 31) / 32 * 32);
    }

    private synchronized DecodingSession borrow(int maxWindowSamples, int maxTokens) {
        if (closed) throw new IllegalStateException("the Moonshine model is closed");
        Size size = size(maxWindowSamples, maxTokens);
        DecodingSession s = idle.computeIfAbsent(size, k -> new ArrayDeque<>()).poll();
        if (s != null) return s;
        synchronized (engine) {
            s = new DecodingSession(engine, weights, size.selfTokens(), size.crossFrames());
        }
        return s;
    }

    private synchronized void giveBack(DecodingSession s) {
        if (closed) {
            s.close();
            return;
        }
        idle.get(new Size(s.cache.crossCapacity, s.cache.selfCapacity)).push(s);
    }

    /** Closes every session, then the weights; sessions still lent out close when returned. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        synchronized (engine) {
            idle.values().forEach(q -> q.forEach(DecodingSession::close));
        }
        idle.clear();
        batches.values().forEach(BatchDecoder::close);
        batches.clear();
        weights.close();
    }
}
