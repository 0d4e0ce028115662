package dev.audioengine.models.silero;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chunk-by-chunk voice activity detection at 8 or 16 kHz: {@link #accept} takes any number of
 * samples, runs every complete chunk (with the previous chunk's tail as context and the LSTM
 * state carried, as Silero's ONNX wrapper does) and reports their probabilities and the
 * segment boundaries they settle ({@link StreamingSegmenter} says when each comes); {@link
 * #finish} ends the stream. The segments are exactly those of {@link SpeechTimestamps} on the
 * same probabilities. Not thread-safe: one thread feeds a session, one session per stream.
 */
public final class StreamingSession implements VadStream {
    private final ChunkRunner runner;
    private final StreamingSegmenter segmenter;
    private final int chunk, context;
    private final float[] window; // context + chunk, the next model input
    private int filled; // samples of the current chunk received so far
    private long total; // samples accepted since the last reset
    private final float[] one = new float[1];

    StreamingSession(ChunkRunner runner, VadOptions options) {
        this.runner = runner;
        this.chunk = runner.weights().chunk;
        this.context = runner.weights().context;
        this.window = new float[context + chunk];
        this.segmenter = new StreamingSegmenter(options, chunk, runner.weights().sampleRate);
        runner.resetState();
    }

    @Override
    public int sampleRate() {
        return runner.weights().sampleRate;
    }

    /** Samples per model chunk (512 at 16 kHz, 256 at 8 kHz). */
    @Override
    public int chunkSize() {
        return chunk;
    }

    /** Takes the next samples; a NaN or infinite one fails, naming its index in the stream, and nothing of this call is used. */
    @Override
    public Result accept(float[] samples) {
        FiniteSamples.require(samples, 0, samples.length, total, sampleRate());
        float[] probs = new float[(filled + samples.length) / chunk];
        List<SpeechEvent> events = new ArrayList<>();
        int k = 0;
        for (int i = 0; i < samples.length; ) {
            int take = Math.min(chunk - filled, samples.length - i);
            System.arraycopy(samples, i, window, context + filled, take);
            filled += take;
            i += take;
            if (filled == chunk) segmenter.accept(probs[k++] = step(), events);
        }
        total += samples.length;
        return new Result(probs, events);
    }

    /**
     * Ends the stream: runs the buffered partial chunk zero-padded, as the offline call does (its
     * probability is the last one), and settles every boundary still open, a segment open at the
     * end included (it ends with the audio if it is long enough). The session is then reset,
     * ready for a new stream.
     */
    @Override
    public Result finish() {
        List<SpeechEvent> events = new ArrayList<>();
        float[] probs = new float[0];
        if (filled > 0) {
            Arrays.fill(window, context + filled, window.length, 0f);
            filled = chunk;
            probs = new float[] {step()};
        }
        segmenter.finish(probs.length == 1 ? probs[0] : Float.NaN, total, events);
        reset();
        return new Result(probs, events);
    }

    /** Forgets the audio so far: zero state, zero context, no open segment. */
    @Override
    public void reset() {
        runner.resetState();
        Arrays.fill(window, 0f);
        filled = 0;
        total = 0;
        segmenter.reset();
    }

    private float step() {
        runner.run(window, 0, 1, one, 0);
        System.arraycopy(window, chunk, window, 0, context); // this chunk's tail is the next context
        filled = 0;
        return one[0];
    }

    @Override
    public void close() {
        runner.close();
    }
}
