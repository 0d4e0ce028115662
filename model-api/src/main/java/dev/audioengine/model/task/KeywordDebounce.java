package dev.audioengine.model.task;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a stream of per-frame keyword scores into detections with {@link KeywordOptions}' semantics: a keyword is
 * detected at the first frame scoring at least the threshold, and is then not detected again until the refractory
 * period has passed and its score has been below the threshold at some frame since. Keywords are debounced
 * independently. A
 * {@link KeywordSpotter} family feeds it its frames in order; not thread-safe.
 */
public final class KeywordDebounce {
    private final List<String> keywords;
    private final double threshold, frameSeconds;
    private final long refractoryFrames;
    private final long[] lastDetection;
    /** Whether the keyword's score has been below the threshold since its last detection (or it never fired). */
    private final boolean[] dipped;

    private long frame;

    /**
     * A debounce over frames of {@code frameSeconds} each.
     *
     * @param keywords     the keyword of each score in a frame's row, in order
     * @param options      the threshold and refractory period (its keyword selection is not used here)
     * @param frameSeconds the length of one frame in seconds, positive
     * @throws IllegalArgumentException when {@code frameSeconds} is not positive
     */
    public KeywordDebounce(List<String> keywords, KeywordOptions options, double frameSeconds) {
        if (!(frameSeconds > 0) || Double.isInfinite(frameSeconds))
            throw new IllegalArgumentException("frame length must be positive, got " + frameSeconds);
        this.keywords = List.copyOf(keywords);
        this.threshold = options.threshold();
        this.frameSeconds = frameSeconds;
        // a period that is a whole number of frames up to float noise is that many frames
        this.refractoryFrames = (long) Math.ceil(options.refractorySeconds() / frameSeconds - 1e-9);
        this.lastDetection = new long[this.keywords.size()];
        this.dipped = new boolean[this.keywords.size()];
        reset();
    }

    /**
     * The refractory period in frames: a detection at frame f allows the next at frame f + this, at the earliest.
     *
     * @return the period rounded up to whole frames
     */
    public long refractoryFrames() {
        return refractoryFrames;
    }

    /**
     * Takes the scores of the next frame.
     *
     * @param scores one score per keyword, in the constructor's order
     * @return the detections this frame makes, in keyword order (empty most of the time)
     * @throws IllegalArgumentException when the row has another length than the keyword list
     */
    public List<KeywordDetection> accept(float[] scores) {
        if (scores.length != keywords.size())
            throw new IllegalArgumentException(scores.length + " scores for " + keywords.size() + " keywords");
        List<KeywordDetection> out = List.of();
        for (int k = 0; k < scores.length; k++) {
            if (!(scores[k] >= threshold)) { // below, or NaN: not a detection
                dipped[k] = true;
                continue;
            }
            if (dipped[k] && frame - lastDetection[k] >= refractoryFrames) {
                if (out.isEmpty()) out = new ArrayList<>();
                out.add(new KeywordDetection(keywords.get(k), frame, (frame + 1) * frameSeconds, scores[k]));
                dipped[k] = false;
                lastDetection[k] = frame;
            }
        }
        frame++;
        return out;
    }

    /**
     * The index the next frame given to {@link #accept} will have.
     *
     * @return frames taken since construction or the last reset
     */
    public long frames() {
        return frame;
    }

    /** Forgets every detection and starts counting frames from 0 again. */
    public void reset() {
        frame = 0;
        java.util.Arrays.fill(dipped, true);
        java.util.Arrays.fill(lastDetection, Long.MIN_VALUE / 2);
    }
}
