package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.PersistentTensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One decoder's mutable state: the key/value caches on the device (per layer self [1, H, textCtx, hd], written one
 * position per step, and cross [1, H, 1500, hd], written once per window by the encoder graph), the two compiled
 * graphs bound to them, and the small host tensors a step feeds. The caches have fixed capacities and a length mask,
 * so one compiled step serves every position (docs/STATE.md), as Moonshine's sessions do. Not thread-safe.
 */
final class WhisperSession implements WhisperSteps, AutoCloseable {
    private static final List<String> KINDS = List.of("self_k", "self_v", "cross_k", "cross_v");

    private final WhisperConfig config;
    private final List<PersistentTensor> caches = new ArrayList<>();
    private final CompiledGraph encoder, step;
    private final HostTensor token = HostTensor.allocate(DType.I32, Shape.of(1, 1));
    private final HostTensor position = HostTensor.allocate(DType.I32, Shape.of(1));
    private final HostTensor selfLength = HostTensor.allocate(DType.I32, Shape.of(1));
    private final HostTensor logits;
    private final Map<String, HostTensor> stepInputs;
    private final List<PersistentTensor> selfCaches;
    // beam search: each beam's self caches on the host ([beam][cache]), swapped through the device caches per step
    private HostTensor[][] beams = new HostTensor[0][], spare = new HostTensor[0][];
    private int resident = -1; // the beam whose caches the device holds, or -1

    WhisperSession(AudioEngine engine, WhisperWeights weights) {
        this.config = weights.config;
        this.engine = engine;
        this.weights = weights;
        WhisperConfig c = config;
        CompiledGraph enc = null;
        try {
            for (int l = 0; l < c.textLayers(); l++) {
                for (String kind : KINDS) {
                    int capacity = kind.startsWith("self") ? c.textCtx() : c.audioCtx();
                    caches.add(engine.state(
                            WhisperNetwork.cacheName(kind, l), DType.F32, WhisperNetwork.cacheShape(c, capacity)));
                }
            }
            PersistentTensor[] cross =
                    caches.stream().filter(t -> t.name().contains(".cross_")).toArray(PersistentTensor[]::new);
            enc = engine.compile(WhisperNetwork.encoder(c, weights.encoder), cross);
            step = engine.compile(
                    WhisperNetwork.step(c, weights.decoder, c.textCtx()), caches.toArray(PersistentTensor[]::new));
            encoder = enc;
        } catch (RuntimeException e) {
            if (enc != null) enc.close();
            caches.forEach(PersistentTensor::close);
            throw e;
        }
        selfCaches = caches.stream().filter(t -> t.name().contains(".self_")).toList();
        logits = HostTensor.allocate(DType.F32, Shape.of(1, 1, c.vocabulary()));
        stepInputs = Map.of(
                WhisperNetwork.TOKEN, token, WhisperNetwork.POSITION, position, WhisperNetwork.SELF_LENGTH, selfLength);
    }

    /**
     * Encodes one window of at most 30 s ({@code length} samples from {@code from}, zero-padded) into the cross
     * caches; returns the encoder states [1, 1500, d] when {@code keepStates} (the caller closes them), else null.
     */
    HostTensor encode(float[] samples, int from, int length, boolean keepStates) {
        if (length > WhisperNetwork.WINDOW_SAMPLES)
            throw new IllegalArgumentException("a Whisper window holds at most 30 s (" + WhisperNetwork.WINDOW_SAMPLES
                    + " samples), not " + length);
        float[] window = new float[WhisperNetwork.WINDOW_SAMPLES];
        System.arraycopy(samples, from, window, 0, length);
        try (HostTensor audio = HostTensor.ofFloats(Shape.of(1, WhisperNetwork.WINDOW_SAMPLES), window)) {
            CompiledGraph.Outputs out;
            synchronized (engine.runLock(this)) { // a batch's steps may share the engine (WhisperBatch)
                out = encoder.run(Map.of(WhisperNetwork.AUDIO, audio));
            }
            if (keepStates) return out.get(0);
            out.close();
            return null;
        }
    }

    @Override
    public void encode(float[] samples, int from, int length) {
        encode(samples, from, length, false);
    }

    /** Feeds {@code tokenId} at position {@code pos} (all earlier positions fed since the last encode) → logits [V]. */
    @Override
    public float[] step(int tokenId, int pos) {
        if (pos >= config.textCtx())
            throw new IllegalArgumentException("position " + pos + " is past the decoder's " + config.textCtx());
        token.data().set(ValueLayout.JAVA_INT, 0, tokenId);
        position.data().set(ValueLayout.JAVA_INT, 0, pos);
        selfLength.data().set(ValueLayout.JAVA_INT, 0, pos + 1);
        synchronized (engine.runLock(this)) {
            step.runInto(stepInputs, List.of(logits));
        }
        return logits.toFloatArray();
    }

    /** The prompt is fed already: the beams start from what the device's caches hold ({@link #startBeams}). */
    @Override
    public Decoders decoders(int n, int[] fed) {
        startBeams(n);
        return new Decoders() {
            @Override
            public float[] step(int beam, int token, int position) {
                return WhisperSession.this.step(beam, token, position);
            }

            @Override
            public void fork(int[] from) {
                forkBeams(from);
            }

            @Override
            public void close() {
                endBeams();
            }
        };
    }

    /**
     * Beam search: makes room for {@code n} beams' self caches on the host, every beam's a copy of the caches the
     * device holds now (the prompt fed). Each beam's cache is whole, so a beam forks by copying another's.
     */
    void startBeams(int n) {
        endBeams();
        beams = new HostTensor[n][];
        spare = new HostTensor[n][];
        for (int b = 0; b < n; b++) {
            beams[b] = new HostTensor[selfCaches.size()];
            spare[b] = new HostTensor[selfCaches.size()];
            for (int i = 0; i < selfCaches.size(); i++) {
                PersistentTensor c = selfCaches.get(i);
                beams[b][i] = HostTensor.allocate(c.dtype(), c.shape());
                spare[b][i] = HostTensor.allocate(c.dtype(), c.shape());
                if (b == 0) c.download(beams[b][i]);
                else
                    MemorySegment.copy(
                            beams[0][i].data(),
                            0,
                            beams[b][i].data(),
                            0,
                            beams[0][i].data().byteSize());
            }
        }
        resident = 0;
    }

    /** As {@link #step(int, int)} on beam {@code beam}'s self caches (they take this step's keys and values). */
    float[] step(int beam, int tokenId, int pos) {
        if (resident != beam) {
            for (int i = 0; i < selfCaches.size(); i++) selfCaches.get(i).upload(beams[beam][i]);
            resident = beam;
        }
        float[] out = step(tokenId, pos);
        for (int i = 0; i < selfCaches.size(); i++) selfCaches.get(i).download(beams[beam][i]);
        return out;
    }

    /** Beam {@code b} continues beam {@code from[b]}'s sequence: the caches are copied, all at once. */
    void forkBeams(int[] from) {
        for (int b = 0; b < from.length; b++)
            for (int i = 0; i < selfCaches.size(); i++)
                MemorySegment.copy(
                        beams[from[b]][i].data(),
                        0,
                        spare[b][i].data(),
                        0,
                        spare[b][i].data().byteSize());
        HostTensor[][] t = beams;
        beams = spare;
        spare = t;
        resident = -1;
    }

    /** Frees the beams' host caches (until the next beam search). */
    void endBeams() {
        for (HostTensor[][] set : List.of(beams, spare)) for (HostTensor[] b : set) for (HostTensor t : b) t.close();
        beams = spare = new HostTensor[0][];
        resident = -1;
    }

    /**
     * Word timestamps: the step graph that also outputs the alignment heads' cross-attention weights, compiled on
     * first use for these heads (and again only when other heads are asked for).
     */
    private CompiledGraph alignmentStep;

    private WhisperAlignment.Heads alignmentHeads;
    private HostTensor alignmentWeights;
    private AudioEngine engine;
    private WhisperWeights weights;

    /**
     * Feeds {@code tokens} from position 0 over the encoded window and returns each one's alignment-head weights,
     * [token][head][1500]. The self caches are overwritten (the window's decoding is over).
     */
    float[][][] alignmentWeights(int[] tokens, WhisperAlignment.Heads heads) {
        if (tokens.length > config.textCtx())
            throw new IllegalArgumentException(tokens.length + " tokens do not fit the decoder's " + config.textCtx());
        if (alignmentStep == null || !heads.toString().equals(alignmentHeads.toString())) {
            if (alignmentStep != null) {
                alignmentStep.close();
                alignmentWeights.close();
                alignmentStep = null;
            }
            alignmentStep = engine.compile(
                    WhisperNetwork.step(config, weights.decoder, config.textCtx(), heads),
                    caches.toArray(PersistentTensor[]::new));
            alignmentHeads = heads;
            alignmentWeights = HostTensor.allocate(DType.F32, Shape.of(heads.count(), config.audioCtx()));
        }
        float[][][] out = new float[tokens.length][heads.count()][];
        for (int i = 0; i < tokens.length; i++) {
            token.data().set(ValueLayout.JAVA_INT, 0, tokens[i]);
            position.data().set(ValueLayout.JAVA_INT, 0, i);
            selfLength.data().set(ValueLayout.JAVA_INT, 0, i + 1);
            synchronized (engine.runLock(this)) {
                alignmentStep.runInto(stepInputs, List.of(logits, alignmentWeights));
            }
            float[] all = alignmentWeights.toFloatArray();
            for (int h = 0; h < heads.count(); h++)
                out[i][h] = java.util.Arrays.copyOfRange(all, h * config.audioCtx(), (h + 1) * config.audioCtx());
        }
        return out;
    }

    dev.audioengine.api.exec.RunSummary stepSummary() {
        return step.summary();
    }

    @Override
    public void close() {
        encoder.close();
        step.close();
        if (alignmentStep != null) {
            alignmentStep.close();
            alignmentWeights.close();
        }
        caches.forEach(PersistentTensor::close);
        endBeams();
        for (HostTensor t : List.of(token, position, selfLength, logits)) t.close();
    }
}
