package dev.audioengine.models.asr;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechSegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans the windows a recognizer decodes from the speech segments a voice activity detector found: going left to
 * right, a segment joins the window before it when the gap between them is under {@link AsrOptions#mergeGapSeconds()}
 * and the window stays within {@link AsrOptions#maxWindowSeconds()}; a segment longer than that is split into
 * near-equal parts (at the least probable chunks near the even cuts when probabilities are known). Windows are in
 * order, never overlap, cover every sample of every segment and nothing outside the first segment's start and the last
 * one's end.
 * <p>
 * {@link #plan} does it for a whole list. For audio that arrives in blocks, segments are {@link #add}ed as the detector
 * reports them and each window is returned as soon as it is settled: when the next segment shows it cannot grow, or
 * earlier through {@link #settleBefore} when the caller knows that no segment can start before some sample. Not
 * thread-safe.
 */
public final class SpeechWindows {
    private final int sampleRate;
    private final long maxSamples;
    private final double mergeGapSamples;
    private final ChunkProbabilities probabilities;
    private long windowStart = -1, windowEnd; // the window not settled yet; -1: none
    private long nextStartAtLeast; // segments must start here or later (ends seen, promises made)

    /** @param probabilities used to place the cuts of long segments; {@link ChunkProbabilities#NONE} for equal parts */
    public SpeechWindows(AsrOptions options, int sampleRate, ChunkProbabilities probabilities) {
        if (sampleRate <= 0) throw new IllegalArgumentException("sample rate must be positive, got " + sampleRate);
        this.sampleRate = sampleRate;
        this.maxSamples = (long) Math.floor(options.maxWindowSeconds() * sampleRate);
        this.mergeGapSamples = options.mergeGapSeconds() * sampleRate;
        this.probabilities = probabilities;
    }

    /** The windows of sorted, non-overlapping segments at one rate, with equal parts for long segments. */
    public static List<SpeechSegment> plan(List<SpeechSegment> segments, AsrOptions options) {
        return plan(segments, options, ChunkProbabilities.NONE);
    }

    /** The windows of sorted, non-overlapping segments at one rate; long segments are cut where the probability is low. */
    public static List<SpeechSegment> plan(
            List<SpeechSegment> segments, AsrOptions options, ChunkProbabilities probabilities) {
        if (segments.isEmpty()) return List.of();
        SpeechWindows planner = new SpeechWindows(options, segments.getFirst().sampleRate(), probabilities);
        List<SpeechSegment> out = new ArrayList<>();
        for (SpeechSegment s : segments) out.addAll(planner.add(s));
        out.addAll(planner.finish());
        return out;
    }

    /** Takes the next segment; returns the windows it settles (often none). */
    public List<SpeechSegment> add(SpeechSegment segment) {
        if (segment.sampleRate() != sampleRate) {
            throw new IllegalArgumentException("segment " + describe(segment) + " is at " + segment.sampleRate()
                    + " Hz, the windows at " + sampleRate + " Hz");
        }
        if (segment.endSample() <= segment.startSample())
            throw new IllegalArgumentException("segment " + describe(segment) + " is empty");
        if (segment.startSample() < nextStartAtLeast) {
            throw new IllegalArgumentException(
                    "segment " + describe(segment) + " starts before sample " + nextStartAtLeast
                            + ": segments must come in order, must not overlap, and must not start before a settleBefore bound");
        }
        List<SpeechSegment> out = new ArrayList<>(1);
        boolean joins = windowStart >= 0
                && segment.startSample() - windowEnd < mergeGapSamples
                && segment.endSample() - windowStart <= maxSamples;
        if (joins) {
            windowEnd = segment.endSample();
        } else {
            settle(out);
            windowStart = segment.startSample();
            windowEnd = segment.endSample();
        }
        nextStartAtLeast = segment.endSample();
        out.addAll(settleBefore(segment.endSample())); // a full window (or a zero merge gap) settles at once
        return out;
    }

    /**
     * Tells the planner that no later segment starts before {@code sample}; returns the window this settles, if the
     * open one can no longer be joined (the gap would be too long or the window too long).
     */
    public List<SpeechSegment> settleBefore(long sample) {
        nextStartAtLeast = Math.max(nextStartAtLeast, sample);
        if (windowStart < 0) return List.of();
        boolean gapTooLong = nextStartAtLeast - windowEnd >= mergeGapSamples;
        boolean windowTooLong =
                nextStartAtLeast + 1 - windowStart > maxSamples; // a later segment ends after nextStartAtLeast
        if (!gapTooLong && !windowTooLong) return List.of();
        List<SpeechSegment> out = new ArrayList<>(1);
        settle(out);
        return out;
    }

    /** No more segments: returns the last window(s). */
    public List<SpeechSegment> finish() {
        List<SpeechSegment> out = new ArrayList<>(1);
        settle(out);
        return out;
    }

    /** Where the window not yet settled starts; -1 when there is none. */
    public long pendingStart() {
        return windowStart;
    }

    private void settle(List<SpeechSegment> out) {
        if (windowStart < 0) return;
        if (windowEnd - windowStart <= maxSamples) out.add(new SpeechSegment(windowStart, windowEnd, sampleRate));
        else out.addAll(SegmentSplitter.split(windowStart, windowEnd, maxSamples, sampleRate, probabilities));
        windowStart = -1;
    }

    private static String describe(SpeechSegment s) {
        return "[" + s.startSample() + ", " + s.endSample() + ")";
    }
}
