package dev.audioengine.model.task;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link KeywordStream} whose scores count only while a voice activity detector hears speech: openWakeWord's
 * {@code vad_threshold}. A frame's scores are set to 0 unless the highest speech probability in the frames 4 to 6
 * before it (openWakeWord's {@code prediction_buffer[-7:-4]}: a wake word scores highest once it has been said, when
 * the speech that made it lies a few hundred milliseconds back) is at least the threshold; detections are then made
 * from the gated scores with {@link KeywordDebounce}, so a suppressed frame neither detects nor starts a refractory
 * period. A frame's speech probability is the highest of the detector's chunks that end inside it (Silero: 32 ms
 * chunks, two or three per 80 ms frame). The first 4 frames of the audio have no such history and score 0.
 *
 * <p>Both streams get every sample; the detector must take the keyword stream's sample rate. This stream owns both and
 * closes both. Not thread-safe, as any {@link KeywordStream}.
 */
public final class VadGatedKeywordStream implements KeywordStream {
    /** The gate looks at the frames this many back ... */
    static final int NEAREST = 4;
    /** ... to this many back (openWakeWord's {@code [-7:-4]}: the 7th to the 5th last of a buffer ending now). */
    static final int FARTHEST = 6;

    /** Frames per piece a long call is cut into (see {@link #accept(float[], int, int)}). */
    private static final int PIECE = 16;

    private final KeywordStream keywords;
    private final VadStream vad;
    private final int vadChunk;
    private final double threshold;
    private final KeywordDebounce debounce;
    /** Each frame's speech probability, the last FARTHEST + 1 frames, by frame index modulo the length. */
    private final float[] speech = new float[FARTHEST + 1];
    /** Samples fed to the detector (its chunks end at multiples of vadChunk) and frames gated so far. */
    private long samples, frames;
    /** The highest probability of chunks ending in frames not yet gated, by frame index modulo the length. */
    private final float[] pending = new float[64];

    /**
     * Gates {@code keywords} with {@code vad}.
     *
     * @param keywords  the keyword stream; its own detections are replaced by those of the gated scores
     * @param vad       a detector stream at the keyword stream's sample rate
     * @param options   the threshold and refractory period the detections follow (as the keyword stream's)
     * @param threshold the speech probability at or above which a frame counts as speech, in (0, 1)
     * @throws IllegalArgumentException when the threshold is not in (0, 1) or the two streams' sample rates differ
     */
    public VadGatedKeywordStream(KeywordStream keywords, VadStream vad, KeywordOptions options, double threshold) {
        if (!(threshold > 0 && threshold < 1))
            throw new IllegalArgumentException("VAD threshold must be in (0, 1), got " + threshold);
        if (vad.sampleRate() != keywords.sampleRate())
            throw new IllegalArgumentException("the VAD stream takes " + vad.sampleRate() + " Hz, the keyword stream "
                    + keywords.sampleRate() + " Hz");
        this.keywords = keywords;
        this.vad = vad;
        this.vadChunk = vad.chunkSize();
        this.threshold = threshold;
        this.debounce = new KeywordDebounce(
                keywords.keywords(), options, keywords.frameSize() / (double) keywords.sampleRate());
    }

    @Override
    public int sampleRate() {
        return keywords.sampleRate();
    }

    @Override
    public int frameSize() {
        return keywords.frameSize();
    }

    @Override
    public List<String> keywords() {
        return keywords.keywords();
    }

    @Override
    public Result accept(float[] samples, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, samples.length);
        for (int i = offset; i < offset + length; i++)
            if (!Float.isFinite(samples[i]))
                throw new IllegalArgumentException("sample " + (i - offset) + " of the call is " + samples[i]);
        // in pieces of at most PIECE frames, so that the detector is never far ahead of the frames gated
        int piece = PIECE * frameSize();
        long first = -1;
        List<float[]> scores = new ArrayList<>();
        List<KeywordDetection> detections = new ArrayList<>();
        for (int at = offset; at < offset + length || at == offset; at += piece) {
            int n = Math.min(piece, offset + length - at);
            Result r = keywords.accept(samples, at, n);
            listen(vad.accept(Arrays.copyOfRange(samples, at, at + n)).probabilities());
            Result g = gate(r);
            if (first < 0) first = g.firstFrame();
            scores.addAll(Arrays.asList(g.scores()));
            detections.addAll(g.detections());
            if (n == 0) break;
        }
        return new Result(first, scores.toArray(float[][]::new), detections);
    }

    @Override
    public Result finish() {
        Result r = keywords.finish();
        // the last frame's gate looks 4 frames back: chunks the detector still holds do not matter to it
        Result gated = gate(r);
        resetState();
        return gated;
    }

    @Override
    public void reset() {
        keywords.reset();
        resetState();
    }

    private void resetState() {
        vad.reset();
        debounce.reset();
        Arrays.fill(speech, 0f);
        Arrays.fill(pending, 0f);
        samples = frames = 0;
    }

    /** Files each new chunk's probability under the frame its end falls in. */
    private void listen(float[] probabilities) {
        int frame = frameSize();
        for (float p : probabilities) {
            samples += vadChunk;
            long f = (samples - 1) / frame; // the frame holding the chunk's last sample
            if (f - frames >= pending.length)
                throw new IllegalStateException("the detector ran " + (f - frames) + " frames ahead of the keywords");
            int i = (int) (f % pending.length);
            pending[i] = Math.max(pending[i], p);
        }
    }

    private Result gate(Result r) {
        float[][] out = new float[r.scores().length][];
        List<KeywordDetection> detections = new ArrayList<>();
        for (int k = 0; k < out.length; k++) {
            long f = frames++;
            int i = (int) (f % pending.length);
            speech[(int) (f % speech.length)] = pending[i];
            pending[i] = 0f;
            float heard = 0f;
            for (long back = NEAREST; back <= FARTHEST && back <= f; back++)
                heard = Math.max(heard, speech[(int) ((f - back) % speech.length)]);
            out[k] = heard >= threshold ? r.scores()[k].clone() : new float[r.scores()[k].length];
            detections.addAll(debounce.accept(out[k]));
        }
        return new Result(r.firstFrame(), out, detections);
    }

    @Override
    public void close() {
        try {
            keywords.close();
        } finally {
            vad.close();
        }
    }
}
