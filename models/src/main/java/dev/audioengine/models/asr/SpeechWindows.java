package dev.audioengine.models.asr;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechSegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans the windows a recognizer decodes from the speech segments a voice activity detector found. Segments are packed
 * into windows across pauses, as WhisperX merges its VAD chunks: going left to right, a segment joins the open window
 * when the pause before it is under {@link AsrOptions#mergeGapSeconds()} and the window stays within
 * {@link AsrOptions#maxWindowSeconds()}. When a segment would make the window too long, the window is cut at its
 * <em>longest</em> pause (among the cuts that leave the rest, with the new segment, short enough), not just before the
 * new segment: a pause between sentences is longer than one inside a sentence, so the cut keeps sentences whole, and
 * the part after the cut stays open to grow. A segment longer than the limit is split into near-equal parts (at the
 * least probable chunks near the even cuts when probabilities are known). Windows are in order, never overlap, cover
 * every sample of every segment and nothing outside the first segment's start and the last one's end.
 * <p>
 * {@link #plan} does it for a whole list. For audio that arrives in blocks, segments are {@link #add}ed as the detector
 * reports them and each window is returned as soon as it is settled: when the next segment shows where the cut goes,
 * or earlier through {@link #settleBefore} when the caller knows that no segment can start before some sample and that
 * bound already decides it. Either way the windows are the same. Not thread-safe.
 */
public final class SpeechWindows {
    private final int sampleRate;
    private final long maxSamples;
    private final double mergeGapSamples;
    private final ChunkProbabilities probabilities;
    /** The open window's segments, in order; empty when there is none. */
    private final ArrayList<SpeechSegment> open = new ArrayList<>();

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
        if (!open.isEmpty() && segment.startSample() - windowEnd() >= mergeGapSamples) settle(out);
        if (!open.isEmpty() && segment.endSample() - open.getFirst().startSample() > maxSamples)
            cutBefore(segment, out);
        open.add(segment);
        nextStartAtLeast = segment.endSample();
        out.addAll(settleBefore(segment.endSample())); // a full window (or a zero merge gap) settles at once
        return out;
    }

    /**
     * The open window cannot take {@code next} whole: settles the segments before its longest pause, counting the pause
     * before {@code next}, among the cuts after which the rest and {@code next} fit in one window (the last cut always
     * does: {@code next} alone, split later if it is longer than a window). On equal pauses the later cut wins, so a
     * window is as long as it may be.
     */
    private void cutBefore(SpeechSegment next, List<SpeechSegment> out) {
        int cut = open.size(); // settle open[0, cut)
        long longest = next.startSample() - windowEnd();
        for (int i = open.size() - 1; i >= 1; i--) {
            if (next.endSample() - open.get(i).startSample() > maxSamples) break; // earlier cuts leave even more
            long pause = open.get(i).startSample() - open.get(i - 1).endSample();
            if (pause > longest) {
                longest = pause;
                cut = i;
            }
        }
        List<SpeechSegment> rest = new ArrayList<>(open.subList(cut, open.size()));
        open.subList(cut, open.size()).clear();
        settle(out);
        open.addAll(rest);
    }

    /**
     * Tells the planner that no later segment starts before {@code sample}; returns the window this settles, if the
     * open one can no longer be joined (the gap would be too long or the window too long).
     */
    public List<SpeechSegment> settleBefore(long sample) {
        nextStartAtLeast = Math.max(nextStartAtLeast, sample);
        if (open.isEmpty()) return List.of();
        long pauseAtLeast = nextStartAtLeast - windowEnd();
        boolean gapTooLong = pauseAtLeast >= mergeGapSamples;
        // a later segment ends after nextStartAtLeast: it cannot join the whole window, and when the pause before it is
        // already at least as long as every pause inside, the cut goes before it (the later cut wins a tie)
        boolean windowTooLong = nextStartAtLeast + 1 - open.getFirst().startSample() > maxSamples
                && pauseAtLeast >= longestPauseInside();
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
        return open.isEmpty() ? -1 : open.getFirst().startSample();
    }

    private long windowEnd() {
        return open.getLast().endSample();
    }

    private long longestPauseInside() {
        long longest = -1;
        for (int i = 1; i < open.size(); i++)
            longest = Math.max(
                    longest, open.get(i).startSample() - open.get(i - 1).endSample());
        return longest;
    }

    /** The open window, settled: one window, or a segment longer than a window in parts. */
    private void settle(List<SpeechSegment> out) {
        if (open.isEmpty()) return;
        long start = open.getFirst().startSample(), end = windowEnd();
        if (end - start <= maxSamples) out.add(new SpeechSegment(start, end, sampleRate));
        else out.addAll(SegmentSplitter.split(start, end, maxSamples, sampleRate, probabilities));
        open.clear();
    }

    private static String describe(SpeechSegment s) {
        return "[" + s.startSample() + ", " + s.endSample() + ")";
    }
}
