package dev.audioengine.models.silero;

import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Offline voice activity detection pushed block by block, with bounded memory on audio of any
 * length: samples are gathered into batches of {@link SileroVad#OFFLINE_BATCH} chunks, each
 * batch is one graph run with the LSTM state and the context carried from the batch before, and
 * {@link #finish} runs the rest with the last chunk zero-padded. Blocks of any size give exactly
 * the probabilities of {@link SileroVad#probabilities} on the whole audio, and the segments of
 * {@link SpeechTimestamps} on them, each segment as soon as it is settled (see {@link
 * StreamingSegmenter}). Memory: two batches of samples (about 2.3 MB at 16 kHz) and the
 * segments not yet returned.
 *
 * <p>Not thread-safe: one thread feeds a session. Close it when done: its runner goes back to
 * the SileroVad's pool.
 */
public final class OfflineSession implements OfflineVad {
    private final ChunkRunner runner;
    private final Consumer<ChunkRunner> giveBack;
    private final StreamingSegmenter segmenter;
    private final int chunk, context, rate;
    private final float[] batch; // context, then up to OFFLINE_BATCH chunks of samples
    private final float[] windows; // the model input: context + chunk per chunk, end to end
    private int filled; // samples of the batch received so far
    private long total; // samples accepted
    private long openStart = -1; // where the segment whose END is awaited starts
    private boolean finished, closed;

    OfflineSession(ChunkRunner runner, VadOptions options, Consumer<ChunkRunner> giveBack) {
        this.runner = runner;
        this.giveBack = giveBack;
        this.chunk = runner.weights().chunk;
        this.context = runner.weights().context;
        this.rate = runner.weights().sampleRate;
        this.segmenter = new StreamingSegmenter(options, chunk, rate);
        this.batch = new float[context + SileroVad.OFFLINE_BATCH * chunk];
        this.windows = new float[SileroVad.OFFLINE_BATCH * (context + chunk)];
        runner.resetState();
    }

    @Override
    public int sampleRate() {
        return rate;
    }

    /** Samples accepted so far. */
    public long samples() {
        return total;
    }

    /** Takes the next block; a NaN or infinite sample fails, naming its index in the audio, and nothing of this block is used. */
    public Result accept(float[] samples) {
        return accept(samples, 0, samples.length);
    }

    /** Takes {@code samples[from, from + length)} as the next block. */
    @Override
    public Result accept(float[] samples, int from, int length) {
        ensureOpen();
        java.util.Objects.checkFromIndexSize(from, length, samples.length);
        FiniteSamples.require(samples, from, length, total, rate);
        int full = SileroVad.OFFLINE_BATCH * chunk;
        int batches = (filled + length) / full;
        float[] probs = new float[batches * SileroVad.OFFLINE_BATCH];
        List<SpeechEvent> events = new ArrayList<>();
        int k = 0;
        for (int i = from, end = from + length; i < end; ) {
            int take = Math.min(full - filled, end - i);
            System.arraycopy(samples, i, batch, context + filled, take);
            filled += take;
            i += take;
            if (filled == full) {
                run(SileroVad.OFFLINE_BATCH, probs, k);
                for (int j = 0; j < SileroVad.OFFLINE_BATCH; j++) segmenter.accept(probs[k + j], events);
                k += SileroVad.OFFLINE_BATCH;
                System.arraycopy(batch, full, batch, 0, context); // the batch's tail is the next context
                filled = 0;
            }
        }
        total += length;
        return new Result(probs, segments(events));
    }

    /** Runs the chunks still buffered (the last one zero-padded) and settles the last segments; the session then takes no more audio. */
    @Override
    public Result finish() {
        ensureOpen();
        finished = true;
        int n = (filled + chunk - 1) / chunk;
        float[] probs = new float[n];
        List<SpeechEvent> events = new ArrayList<>();
        if (n > 0) {
            Arrays.fill(batch, context + filled, batch.length, 0f);
            run(n, probs, 0);
            for (int j = 0; j < n - 1; j++) segmenter.accept(probs[j], events);
        }
        boolean partial = filled % chunk != 0;
        if (n > 0 && !partial) segmenter.accept(probs[n - 1], events);
        segmenter.finish(n > 0 && partial ? probs[n - 1] : Float.NaN, total, events);
        filled = 0;
        return new Result(probs, segments(events));
    }

    private void run(int n, float[] probs, int at) {
        int len = context + chunk;
        for (int j = 0; j < n; j++) System.arraycopy(batch, j * chunk, windows, j * len, len);
        runner.run(windows, 0, n, probs, at);
    }

    /** Boundaries to segments; the segmenter always sends a START before its END, and an END settles a segment. */
    private List<SpeechSegment> segments(List<SpeechEvent> events) {
        List<SpeechSegment> out = new ArrayList<>();
        for (SpeechEvent e : events) {
            if (e.kind() == SpeechEvent.Kind.START) openStart = e.sample();
            else out.add(new SpeechSegment(openStart, e.sample(), rate));
        }
        return out;
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("this offline session is closed");
        if (finished)
            throw new IllegalStateException("this offline session is finished; open a new one for more audio");
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        giveBack.accept(runner);
    }
}
