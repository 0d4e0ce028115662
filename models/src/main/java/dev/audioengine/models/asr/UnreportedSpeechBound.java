package dev.audioengine.models.asr;

import dev.audioengine.model.task.VadOptions;
import java.util.ArrayDeque;

/**
 * The earliest sample at which a segment that a voice activity detector has not reported yet can start, from the
 * chunk probabilities it gave and the ends it reported (an offline detector's segments, a streaming one's ENDs):
 * what lets transcription discard audio in a long silence instead of keeping it until the next segment comes.
 * <p>
 * It rests on the segmentation rules that {@link VadOptions} names (Silero's get_speech_timestamps, with which the
 * bound is tested), not on when a detector reports:
 * <ul>
 * <li>segments come in order and do not overlap, so one not reported starts at or after the last reported end;</li>
 * <li>before padding, a segment starts at a chunk at or above the threshold, and padding moves it back by at most
 *     speech-pad;</li>
 * <li>without max-speech, a speech run (from such a chunk to a silence of min-silence: chunks below neg-threshold
 *     at both ends, none at or above the threshold between) holds whole segments that end by the silence's start; when that is at most min-speech after the
 *     run's start they are all dropped, so the run can start none.</li>
 * </ul>
 * So the bound is the last reported end, or speech-pad before the first chunk that can still start a segment, or
 * before the chunks still to come, whichever is later. With max-speech a split can carry a segment across a silence
 * into the next run, so no run is taken as dropped: a short noise then holds the bound (and the audio after it) until
 * a later segment is reported. Not thread-safe.
 */
final class UnreportedSpeechBound {
    /** A stretch that may hold segments not reported yet: from its first chunk at or above the threshold. */
    private static final class Run {
        final long start;
        long speechEnd; // the end of its last chunk at or above the threshold
        boolean closed; // followed by min-silence of chunks below neg-threshold

        Run(long start) {
            this.start = start;
        }
    }

    private final double threshold, negThreshold, minSilence, minSpeech;
    private final boolean splits;
    private final long pad;
    private final int chunk;
    private final ArrayDeque<Run> runs = new ArrayDeque<>(); // in order; only the last may be open
    private long chunks;
    private long silenceStart = -1; // where the current stretch of chunks below neg-threshold began; -1: not in one
    private long reportedEnd;

    UnreportedSpeechBound(VadOptions o, int chunkSize, int sampleRate) {
        if (chunkSize <= 0) throw new IllegalArgumentException("chunk size must be positive, got " + chunkSize);
        this.threshold = o.threshold();
        this.negThreshold = o.effectiveNegThreshold();
        this.minSilence = sampleRate * (double) o.minSilenceMs() / 1000;
        this.minSpeech = sampleRate * (double) o.minSpeechMs() / 1000;
        this.pad = (long) Math.ceil(sampleRate * (double) o.speechPadMs() / 1000);
        this.splits = !Double.isInfinite(o.maxSpeechS());
        this.chunk = chunkSize;
    }

    /** The next chunk's probability. */
    void accept(float p) {
        long at = chunk * chunks++;
        Run open = runs.isEmpty() || runs.getLast().closed ? null : runs.getLast();
        if (p >= threshold) {
            silenceStart = -1;
            if (open == null) runs.addLast(open = new Run(at));
            open.speechEnd = at + chunk;
        } else if (p < negThreshold) {
            if (silenceStart < 0) silenceStart = at;
            if (open != null && at - silenceStart >= minSilence) {
                if (!splits && silenceStart - open.start <= minSpeech) runs.removeLast();
                else open.closed = true;
            }
        } // a chunk between the thresholds neither ends a silence nor speech, as in Silero
    }

    /** The detector reported a segment ending at {@code end}. */
    void reported(long end) {
        reportedEnd = Math.max(reportedEnd, end);
        while (!runs.isEmpty() && runs.getFirst().speechEnd <= reportedEnd)
            runs.removeFirst(); // it can start nothing at or after the end
    }

    /** No segment the detector reports from now on starts before this sample. */
    long earliestStart() {
        long first = runs.isEmpty() ? chunk * chunks : runs.getFirst().start;
        return Math.max(reportedEnd, first - pad);
    }
}
