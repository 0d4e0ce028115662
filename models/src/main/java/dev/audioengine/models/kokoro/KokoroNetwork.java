package dev.audioengine.models.kokoro;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;

/**
 * Kokoro's three graphs; between them the host rounds the durations, aligns (repeats each phoneme's rows by its
 * duration, hexgrad's pred_aln_trg) and computes the harmonic source.
 * <ol>
 * <li>{@link #text}: per phoneme count N: ids, style, speed → raw durations [1, N], d [1, N, 640], t_en [1, N, 512]
 * <li>{@link #prosody}: per frame count F: en [1, F, 640], style → F0 and N curves [1, 1, 2F]
 * <li>{@link #synthesis}: per F: asr [1, 512, F], F0, N, the source spectrum [1, 22, 120F + 1], style → [600F]
 * </ol>
 */
final class KokoroNetwork {
    static final String IDS = "input_ids", STYLE = "style", SPEED = "speed", EN = "en", ASR = "asr", F0 = "f0", N = "n", HAR = "har";
    static final String DURATIONS = "durations", D = "d", T_EN = "t_en", WAVEFORM = "waveform", ENCODE = "encode", DECODE = "decode", POST = "post";
    static final int STYLE_HALF = KokoroVoice.STYLE_DIM / 2;

    private KokoroNetwork() {}

    static Graph text(KokoroWeights w, int n) {
        GraphBuilder g = new GraphBuilder();
        Tensor ids = g.input(IDS, DType.I32, Shape.of(1, n));
        Tensor style = predictorStyle(g, g.input(STYLE, Shape.of(1, KokoroVoice.STYLE_DIM)));
        Tensor speed = g.input(SPEED, Shape.of(1));
        Tensor dEn = w.bertEncoder().apply(g, w.bert().apply(g, ids, w.store().scope()));
        HostTensor zeros = w.store().derived("kokoro zero rows " + n, () -> HostTensor.allocate(DType.I32, Shape.of(n)));
        Tensor styleRows = g.reshape(g.getRows(style, g.constant(zeros)), 1, n, STYLE_HALF);
        Tensor d = w.durations().encode(g, dEn, style, styleRows);
        Tensor durations = g.div(w.durations().durations(g, d), speed).named(DURATIONS);
        Tensor tEn = w.textEncoder().apply(g, ids).named(T_EN);
        return g.build(durations, d.named(D), tEn);
    }

    static Graph prosody(KokoroWeights w, int frames) {
        GraphBuilder g = new GraphBuilder();
        Tensor en = g.input(EN, Shape.of(1, frames, 640));
        Tensor style = predictorStyle(g, g.input(STYLE, Shape.of(1, KokoroVoice.STYLE_DIM)));
        Tensor[] curves = w.prosody().apply(g, en, style);
        return g.build(curves[0].named(F0), curves[1].named(N));
    }

    static Graph synthesis(KokoroWeights w, int frames) { return synthesis(w, frames, false); }

    /** With {@code probes}, also encode's output, decode.3's and conv_post's (tests). */
    static Graph synthesis(KokoroWeights w, int frames, boolean probes) {
        GraphBuilder g = new GraphBuilder();
        Tensor asr = g.input(ASR, Shape.of(1, 512, frames));
        Tensor f0 = g.input(F0, Shape.of(1, 1, 2L * frames));
        Tensor n = g.input(N, Shape.of(1, 1, 2L * frames));
        Tensor har = g.input(HAR, Shape.of(1, 2 * KokoroGenerator.BINS, 120L * frames + 1));
        Tensor full = g.input(STYLE, Shape.of(1, KokoroVoice.STYLE_DIM));
        Tensor style = g.contiguous(g.slice(full, 1, 0, STYLE_HALF));
        java.util.List<Tensor> inner = new java.util.ArrayList<>();
        Tensor x = w.decoder().apply(g, asr, f0, n, style, inner);
        inner.add(x);
        Tensor wave = w.generator().apply(g, x, har, style, inner).named(WAVEFORM);
        if (!probes) return g.build(wave);
        return g.build(wave, inner.get(0).named(ENCODE), inner.get(1).named(DECODE), inner.get(2).named(POST));
    }

    /** style[:, 128:], the predictor's half. */
    private static Tensor predictorStyle(GraphBuilder g, Tensor style) {
        return g.contiguous(g.slice(style, 1, STYLE_HALF, KokoroVoice.STYLE_DIM));
    }
}
