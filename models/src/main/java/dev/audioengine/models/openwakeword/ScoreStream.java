package dev.audioengine.models.openwakeword;

import static dev.audioengine.models.openwakeword.OpenWakeWordNetwork.CHUNK;
import static dev.audioengine.models.openwakeword.OpenWakeWordNetwork.CONTEXT;
import static dev.audioengine.models.openwakeword.OpenWakeWordNetwork.EMBEDDING_DIM;
import static dev.audioengine.models.openwakeword.OpenWakeWordNetwork.EMBEDDING_WINDOW;
import static dev.audioengine.models.openwakeword.OpenWakeWordNetwork.MEL_BINS;

import java.util.Arrays;

/**
 * openWakeWord's streaming pipeline (its Python {@code AudioFeatures._streaming_features} and {@code Model.predict})
 * over the engine's graphs, for one audio stream: samples in, one row of raw head outputs per 80 ms chunk out.
 * <ul>
 *   <li>Per chunk of 1280 samples the mel graph sees the 480 samples before it and the chunk (8 new feature frames);
 *       the stream's first chunk has no history and gives 5. The frames are those of one STFT over the whole stream,
 *       but the top_db clamp is per call, as in openWakeWord.
 *   <li>The feature buffer starts as 76 frames of ones (openWakeWord's {@code np.ones((76, 32))}); each chunk's
 *       embedding is of the last 76 frames.
 *   <li>The embedding buffer starts as copies of the embedding of those 76 ones. openWakeWord starts it with the
 *       embeddings of 4 s of random noise; a fixed start keeps scores reproducible. Each head reads the last of its
 *       window.
 * </ul>
 * The embedding graph runs on each chunk's 8 new feature rows with what the chunk before computed (caches at each
 * level of the network), {@link OpenWakeWordNetwork#embeddingStrip}: an eighth of the work of a whole window.
 * Complete chunks are run in batches of up to {@code batch} per graph run (the mel and head rows of a batch are
 * computed as on their own; the embeddings of a batch are one strip of 8·n rows, the same products as one chunk at a
 * time). The caches belong to the stream and are reset with it. Not thread-safe; the runner may be shared.
 */
final class ScoreStream {
    private final FeatureRunner runner;
    private final FeatureRunner.HeadSet heads;
    private final float[] padEmbedding;
    private final float[][] seedCaches, caches;
    private final int batch, window;

    /** Samples not yet run, after {@link #history} samples of history (0 before the first chunk, else 480). */
    private float[] samples = new float[CONTEXT + 4 * CHUNK];

    private int have, history;
    private final float[] features = new float[EMBEDDING_WINDOW * MEL_BINS];
    private final float[] embeddings;
    private long chunks;

    ScoreStream(FeatureRunner runner, FeatureRunner.HeadSet heads, float[] padEmbedding, int batch) {
        this.runner = runner;
        this.heads = heads;
        this.padEmbedding = padEmbedding.clone();
        this.batch = batch;
        this.window = heads.window;
        this.embeddings = new float[window * EMBEDDING_DIM];
        this.seedCaches = runner.seedCaches();
        this.caches = runner.seedCaches();
        reset();
    }

    /** Chunks scored since the last reset. */
    long chunks() {
        return chunks;
    }

    /** Samples buffered towards the next chunk. */
    int pending() {
        return have - history;
    }

    /** Forgets the stream: no history, the padding buffers. */
    void reset() {
        have = history = 0;
        chunks = 0;
        Arrays.fill(features, 1f);
        for (int i = 0; i < caches.length; i++) System.arraycopy(seedCaches[i], 0, caches[i], 0, caches[i].length);
        for (int i = 0; i < window; i++)
            System.arraycopy(padEmbedding, 0, embeddings, i * EMBEDDING_DIM, EMBEDDING_DIM);
    }

    /** Takes samples in [-1, 1] at 16 kHz; returns the raw head outputs of each chunk they complete. */
    float[][] accept(float[] x, int off, int len) {
        if (have + len > samples.length) samples = Arrays.copyOf(samples, Math.max(have + len, 2 * samples.length));
        System.arraycopy(x, off, samples, have, len);
        have += len;
        int complete = (have - history) / CHUNK;
        float[][] out = new float[complete][];
        int done = 0;
        while (done < complete) {
            int at = history + done * CHUNK;
            // batches of powers of two: a handful of compiled sizes whatever the callers' block sizes
            int n = chunks == 0 ? 1 : Integer.highestOneBit(Math.min(batch, complete - done));
            run(at, n, out, done);
            done += n;
        }
        if (complete > 0) { // keep the last 480 samples run as the next chunk's history, and what is pending
            int consumed = history + complete * CHUNK, keep = have - (consumed - CONTEXT);
            System.arraycopy(samples, consumed - CONTEXT, samples, 0, keep);
            have = keep;
            history = CONTEXT;
        }
        return out;
    }

    /** The pending samples zero-padded to a chunk and run (no row when nothing is pending). */
    float[][] flush() {
        int pending = pending();
        if (pending == 0) return new float[0][];
        return accept(new float[CHUNK - pending], 0, CHUNK - pending);
    }

    /** Runs n chunks, the first at {@code at} in {@link #samples}, through the three graphs. */
    private void run(int at, int n, float[][] out, int outAt) {
        boolean first = chunks == 0;
        int len = first ? CHUNK : CONTEXT + CHUNK, start = first ? at : at - CONTEXT;
        int frames = OpenWakeWordNetwork.frames(len), frameSize = MEL_BINS;
        float[] windows = new float[n * len];
        for (int i = 0; i < n; i++) System.arraycopy(samples, start + i * CHUNK, windows, i * len, len);
        float[] mel = new float[n * frames * frameSize];
        runner.mel(windows, n, len, mel);

        // each chunk's window is the last 76 rows, 8 rows after the window before (the first chunk's, 5 frames, is 8
        // rows after a window of ones, whose caches the stream starts from): the embedding graph takes the last 8
        int step = OpenWakeWordNetwork.STEP * MEL_BINS;
        float[] rows = new float[n * step];
        for (int i = 0; i < n; i++) {
            int shift = frames * frameSize;
            System.arraycopy(features, shift, features, 0, features.length - shift);
            System.arraycopy(mel, i * shift, features, features.length - shift, shift);
            System.arraycopy(features, features.length - step, rows, i * step, step);
        }
        float[] emb = new float[n * EMBEDDING_DIM];
        runner.embedStrip(rows, n, caches, emb);

        float[] headWindows = new float[n * embeddings.length];
        for (int i = 0; i < n; i++) {
            System.arraycopy(embeddings, EMBEDDING_DIM, embeddings, 0, embeddings.length - EMBEDDING_DIM);
            System.arraycopy(emb, i * EMBEDDING_DIM, embeddings, embeddings.length - EMBEDDING_DIM, EMBEDDING_DIM);
            System.arraycopy(embeddings, 0, headWindows, i * embeddings.length, embeddings.length);
        }
        int s = heads.outputs;
        float[] scores = new float[n * s];
        runner.heads(heads, headWindows, n, scores);
        for (int i = 0; i < n; i++) out[outAt + i] = Arrays.copyOfRange(scores, i * s, (i + 1) * s);
        chunks += n;
    }
}
