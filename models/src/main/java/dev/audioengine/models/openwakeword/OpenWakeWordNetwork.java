package dev.audioengine.models.openwakeword;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * openWakeWord on the engine's ops: three graphs, run one after the other on each 80 ms of 16 kHz audio.
 * <pre>
 * mel        samples [N, L] (in [-1, 1]; ×2¹⁵ folded into the basis: openWakeWord feeds 16-bit PCM values)
 *              → frames of 512 every 160 (no centring) → GEMM with the STFT basis [514, 512] → re² + im²
 *              → GEMM with the mel matrix [32, 257] → max(·, 1e-10) → 10·log10
 *              → max(·, peak − 80), peak over all of one input's frames (melspectrogram.onnx's top_db)
 *              → x / 10 + 2 (openWakeWord's scaling)                          → features [N, F, 32]
 * embedding  features [N, 76, 32] as [N, H=76, W=32, C=1], channels last
 *              → 20 × (2-D conv as im2col + GEMM, "valid" in time and "same" in frequency; all but the last
 *                followed by a leaky ReLU of slope 0.2 floored at −0.4), max pools 2×2 / 1×2 between them
 *                                                                             → embedding [N, 96]
 * heads      embeddings [N, W, 96], the last W of each frame; every head reads its own last window
 *              → Flatten → (Gemm → [LayerNorm] → ReLU)* → Gemm → Sigmoid | ReLU+Softmax; a verifier beside it
 *                                                                             → scores [N, S]
 * </pre>
 * The leaky ReLU with its floor is the file's two ops, {@code maximum(leakyRelu(x, a), m)} (two passes; composed of
 * ReLUs and scales it took six, half the embedding's time); the max pools are reductions over a reshaped axis; clamps
 * from below are {@code maximum(x, c)}.
 * <p>
 * The streaming pipeline around these graphs (what openWakeWord's Python {@code AudioFeatures} does) is in
 * {@link ScoreStream}: per 80 ms chunk the mel graph sees that chunk and the 480 samples before it (8 new frames; 5 for
 * the very first chunk, which has no history), the embedding graph the last 76 feature frames, the heads the last
 * embeddings.
 */
final class OpenWakeWordNetwork {
    static final int SAMPLE_RATE = 16000;
    /** Samples per score frame: 80 ms. */
    static final int CHUNK = 1280;

    static final int HOP = 160, N_FFT = 512, MEL_BINS = 32;
    /** Samples of history before each chunk the mel model sees (openWakeWord's {@code 160*3}). */
    static final int CONTEXT = 3 * HOP;
    /** Feature frames per embedding, and features per frame; embedding size. */
    static final int EMBEDDING_WINDOW = 76, EMBEDDING_DIM = 96;
    /** The longest head window the pipeline keeps (the timer head reads 34). */
    static final int MAX_HEAD_WINDOW = 128;

    static final float PCM_SCALE = 32768f, AMIN = 1e-10f, TOP_DB = 80f;
    static final String SAMPLES = "samples", FEATURES = "features", EMBEDDINGS = "embeddings";

    private OpenWakeWordNetwork() {}

    /** STFT frames of one input of {@code samples} samples: 512 wide, every 160, not centred. */
    static int frames(int samples) {
        return samples < N_FFT ? 0 : (samples - N_FFT) / HOP + 1;
    }

    /**
     * melspectrogram.onnx then openWakeWord's {@code x/10 + 2}, on N inputs of L samples each: "samples" [N, L] →
     * [N, frames(L), 32]. The top_db clamp is per input, as when each is its own ONNX call.
     */
    static Graph mel(OpenWakeWordWeights w, int n, int samples) {
        int f = frames(samples);
        if (f < 1) throw new IllegalArgumentException("the mel front end needs at least " + N_FFT + " samples");
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input(SAMPLES, Shape.of(n, samples));
        // frame t is blocks t, t+1, t+2 of 160 and the first 32 samples of block t+3
        int blocks = f + 3, used = Math.min(samples, blocks * HOP);
        if (used < samples) x = g.slice(x, 1, 0, used);
        if (used < blocks * HOP) x = g.pad(x, PadMode.ZERO, new long[] {0, 0}, new long[] {0, blocks * HOP - used}, 0f);
        Tensor b = g.reshape(x, n, blocks, HOP);
        Tensor frames = g.concat(
                2,
                g.slice(b, 1, 0, f),
                g.slice(b, 1, 1, f + 1),
                g.slice(b, 1, 2, f + 2),
                g.slice(g.slice(b, 1, 3, f + 3), 2, 0, N_FFT - CONTEXT)); // [N, F, 512]
        Tensor spec = g.matmul(frames, g.constant("stft.basis", w.stftBasis)); // [N, F, 514]
        int bins = N_FFT / 2 + 1;
        Tensor re = g.slice(spec, 2, 0, bins), im = g.slice(spec, 2, bins, 2 * bins);
        Tensor power = g.add(g.mul(re, re), g.mul(im, im));
        Tensor mel = g.matmul(power, g.constant("mel.matrix", w.melMatrix)); // [N, F, 32]
        mel = g.maximum(mel, g.constant("amin", w.amin)); // Clip(mel, amin)
        Tensor db = g.div(g.scale(g.log(mel), 10f), g.constant("ln10", w.ln10)); // the file's Mul 10, Div ln 10
        Tensor peak = g.reshape(g.max(g.reshape(db, n, (long) f * MEL_BINS), 1, true), n, 1, 1);
        Tensor floor = g.scale(peak, 1f, -TOP_DB);
        db = g.maximum(db, floor); // Clip(db, peak - top_db)
        return g.build(g.scale(g.div(db, g.constant("ten", w.ten)), 1f, 2f).named(FEATURES));
    }

    /** embedding_model.onnx: "features" [N, 76, 32] → [N, 96]. */
    static Graph embedding(OpenWakeWordWeights w, int n) {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input(FEATURES, Shape.of(n, EMBEDDING_WINDOW, MEL_BINS));
        Tensor h = g.reshape(x, n, EMBEDDING_WINDOW, MEL_BINS, 1);
        Tensor floor = g.constant("leaky.floor", w.leakyFloorValue);
        int i = 0;
        for (Object layer : w.embeddingLayers) {
            switch (layer) {
                case OpenWakeWordWeights.Conv c -> {
                    h = conv2d(g, h, c, "embedding.conv" + i++);
                    if (c.activated()) h = g.maximum(g.leakyRelu(h, w.leakySlope), floor);
                }
                case OpenWakeWordWeights.Pool p -> h = maxPool(g, h, p);
                default -> throw new IllegalStateException("unknown layer " + layer);
            }
        }
        return g.build(g.reshape(h, n, EMBEDDING_DIM).named("embedding"));
    }

    /**
     * Feature rows per chunk once a stream runs (8 mel frames per 80 ms), which is also the embedding's stride in time:
     * its three 2×2 pools halve time three times and its convolutions are "valid" in time, so the window 8 rows later
     * shares every activation with this one but the last 8/s rows at each level of time stride s.
     */
    static final int STEP = 8;

    /** The name of cache {@code i} of {@link #embeddingStrip}, an input; its next contents are output {@code + ".next"}. */
    static String cache(int i) {
        return "cache" + i;
    }

    /**
     * embedding_model.onnx on k consecutive windows, each {@link #STEP} feature rows after the one before, computing
     * only what the previous window did not: "features" [k·8, 32] (the new rows) and, for each convolution with a
     * kernel of 3 in time, {@link #cache}(i) [1, 2, W, C] (the last 2 rows of its input in the window before) →
     * "embedding" [k, 96] and each cache's next contents, in that order. Each embedding equals {@link #embedding}'s of
     * its 76-row window (the same products; a GEMM of other height may round otherwise in the last bit).
     */
    static Graph embeddingStrip(OpenWakeWordWeights w, int k) {
        GraphBuilder g = new GraphBuilder();
        Tensor h = g.reshape(g.input(FEATURES, Shape.of((long) k * STEP, MEL_BINS)), 1, (long) k * STEP, MEL_BINS, 1);
        Tensor floor = g.constant("leaky.floor", w.leakyFloorValue);
        List<Tensor> next = new ArrayList<>();
        int i = 0, timeStride = 1;
        for (Object layer : w.embeddingLayers) {
            switch (layer) {
                case OpenWakeWordWeights.Conv c -> {
                    if (c.kh() > 1) {
                        int keep = c.kh() - 1;
                        Tensor cache = g.input(cache(next.size()), Shape.of(1, keep, h.dim(2), h.dim(3)));
                        h = g.concat(1, cache, h);
                        next.add(g.contiguous(g.slice(h, 1, h.dim(1) - keep, h.dim(1)))
                                .named(cache(next.size()) + ".next"));
                    }
                    h = conv2d(g, h, c, "embedding.conv" + i++);
                    if (c.activated()) h = g.maximum(g.leakyRelu(h, w.leakySlope), floor);
                }
                case OpenWakeWordWeights.Pool p -> {
                    timeStride *= p.kh();
                    h = maxPool(g, h, p);
                }
                default -> throw new IllegalStateException("unknown layer " + layer);
            }
        }
        if (timeStride != STEP || h.dim(1) != k)
            throw new IllegalStateException("the embedding's pools stride time by " + timeStride + ", not " + STEP);
        List<Tensor> outs = new ArrayList<>();
        outs.add(g.reshape(h, k, EMBEDDING_DIM).named("embedding"));
        outs.addAll(next);
        return g.build(outs.toArray(Tensor[]::new));
    }

    /**
     * Every head on the last embeddings: "embeddings" [N, window, 96] → [N, S], each head's classes and then its
     * verifier's score, head after head in {@code heads}' order ({@link WakeWordHead#outputs()} each).
     */
    static Graph heads(List<WakeWordHead> heads, int n, int window) {
        GraphBuilder g = new GraphBuilder();
        Tensor e = g.input(EMBEDDINGS, Shape.of(n, window, EMBEDDING_DIM));
        List<Tensor> outs = new ArrayList<>();
        int k = 0;
        for (WakeWordHead head : heads) {
            Tensor x = g.reshape(g.slice(e, 1, window - head.window, window), n, (long) head.window * EMBEDDING_DIM);
            outs.add(dense(g, x, head.layers, "head" + k + "."));
            if (head.verifier != null) outs.add(dense(g, x, head.verifier, "head" + k + ".verifier."));
            k++;
        }
        Tensor scores = outs.size() == 1 ? outs.getFirst() : g.concat(1, outs.toArray(Tensor[]::new));
        return g.build(g.contiguous(scores).named("scores"));
    }

    private static Tensor dense(GraphBuilder g, Tensor x, List<WakeWordHead.Dense> layers, String name) {
        int i = 0;
        for (WakeWordHead.Dense d : layers) {
            String p = name + i++;
            x = g.linear(
                    x,
                    g.constant(p + ".weight", d.weight()),
                    d.bias() == null ? null : g.constant(p + ".bias", d.bias()));
            if (d.gamma() != null)
                x = g.layerNorm(
                        x, g.constant(p + ".ln.weight", d.gamma()), g.constant(p + ".ln.bias", d.beta()), d.eps());
            for (WakeWordHead.Activation a : d.acts()) {
                x = switch (a) {
                    case RELU -> g.relu(x);
                    case SIGMOID -> g.sigmoid(x);
                    case SOFTMAX -> g.softmax(x);
                };
            }
        }
        return x;
    }

    /** A 2-D convolution on channels-last [N, H, W, C]: kh·kw strided views side by side (im2col), one GEMM. */
    private static Tensor conv2d(GraphBuilder g, Tensor x, OpenWakeWordWeights.Conv c, String name) {
        if (c.padW() > 0)
            x = g.pad(x, PadMode.ZERO, new long[] {0, 0, c.padW(), 0}, new long[] {0, 0, c.padW(), 0}, 0f);
        long hOut = x.dim(1) - c.kh() + 1, wOut = x.dim(2) - c.kw() + 1;
        Tensor[] cols = new Tensor[c.kh() * c.kw()];
        for (int i = 0; i < c.kh(); i++)
            for (int j = 0; j < c.kw(); j++) cols[i * c.kw() + j] = g.slice(g.slice(x, 1, i, i + hOut), 2, j, j + wOut);
        Tensor im2col = cols.length == 1 ? cols[0] : g.concat(3, cols);
        Tensor y = g.matmul(im2col, g.constant(name + ".weight", c.matrix()));
        return c.bias() == null ? y : g.add(y, g.constant(name + ".bias", c.bias()));
    }

    /** A non-overlapping kh × kw max pool on [N, H, W, C], as reductions over reshaped axes (rank stays ≤ 4). */
    private static Tensor maxPool(GraphBuilder g, Tensor x, OpenWakeWordWeights.Pool p) {
        long n = x.dim(0), h = x.dim(1), w = x.dim(2), c = x.dim(3);
        Tensor y = x;
        if (p.kh() > 1) y = g.max(g.reshape(y, n * (h / p.kh()), p.kh(), w, c), 1, false); // [N·H', W, C]
        else y = g.reshape(y, n * h, w, c);
        long rows = n * (h / p.kh());
        if (p.kw() > 1) y = g.max(g.reshape(y, rows, w / p.kw(), p.kw(), c), 2, false); // [N·H', W', C]
        return g.reshape(y, n, h / p.kh(), w / p.kw(), c);
    }
}
