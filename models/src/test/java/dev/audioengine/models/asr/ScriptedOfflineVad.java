package dev.audioengine.models.asr;

import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.models.silero.SpeechTimestamps;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A fake offline VAD that plays back given chunk probabilities with Silero's segmentation of them: probabilities come
 * out {@code batch} chunks at a time (as OfflineSession runs them), each segment once the audio is {@code delay}
 * samples past its end; {@link #finish} gives the rest. It counts what it was fed.
 */
class ScriptedOfflineVad implements OfflineVad {
    static final int CHUNK = 512;

    final float[] probabilities;
    final List<SpeechSegment> segments;
    private final int batch;
    private final long delay, total;
    private long accepted;
    private int ran, reported;
    boolean closed;

    ScriptedOfflineVad(float[] probabilities, long totalSamples, VadOptions options, int batch, long delay) {
        if (probabilities.length < Math.ceilDiv(totalSamples, CHUNK))
            throw new IllegalArgumentException("too few probabilities for the audio");
        this.probabilities = probabilities;
        this.segments = SpeechTimestamps.segments(
                Arrays.copyOf(probabilities, (int) Math.ceilDiv(totalSamples, CHUNK)),
                CHUNK,
                totalSamples,
                WindowDecoder.SAMPLE_RATE,
                options);
        this.batch = batch;
        this.delay = delay;
        this.total = totalSamples;
    }

    @Override
    public int sampleRate() {
        return WindowDecoder.SAMPLE_RATE;
    }

    @Override
    public Result accept(float[] samples, int from, int length) {
        accepted += length;
        if (accepted > total) throw new IllegalStateException("fed " + accepted + " samples, scripted for " + total);
        return emit((int) (accepted / CHUNK / batch * batch), false);
    }

    @Override
    public Result finish() {
        return emit((int) Math.ceilDiv(accepted, CHUNK), true);
    }

    private Result emit(int upTo, boolean all) {
        float[] p = Arrays.copyOfRange(probabilities, ran, Math.max(ran, upTo));
        ran = Math.max(ran, upTo);
        List<SpeechSegment> out = new ArrayList<>();
        while (reported < segments.size() && (all || segments.get(reported).endSample() + delay <= (long) ran * CHUNK))
            out.add(segments.get(reported++));
        return new Result(p, out);
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Speech (0.9) in the given [start, end) chunk ranges, silence (0.02) elsewhere. */
    static float[] speechIn(int chunks, int... ranges) {
        float[] p = new float[chunks];
        Arrays.fill(p, 0.02f);
        for (int i = 0; i < ranges.length; i += 2) Arrays.fill(p, ranges[i], ranges[i + 1], 0.9f);
        return p;
    }
}
