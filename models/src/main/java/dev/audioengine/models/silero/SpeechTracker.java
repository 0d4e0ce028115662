package dev.audioengine.models.silero;

import dev.audioengine.model.task.VadOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * get_speech_timestamps' state machine, one probability at a time: hysteresis between threshold
 * and neg-threshold, a minimum silence before a segment ends, dropping segments shorter than
 * min-speech, and splitting at max-speech (at the longest silence of more than 98 ms seen inside
 * the segment, else right there). It reports raw segments (before padding) as they close; the
 * offline call ({@link SpeechTimestamps}) and the streaming one ({@link StreamingSegmenter}) pad
 * them, so both give the same segments by construction.
 *
 * <p>Durations are converted to samples in long and double arithmetic: {@code sampleRate * ms}
 * overflows int from 134 s at 16 kHz.
 */
final class SpeechTracker {
    /** Receives a closed raw segment, [start, end) in samples. */
    interface Closed {
        void segment(long start, long end);
    }

    private final double threshold, negThreshold, minSpeech, maxSpeech, minSilence, minSilenceAtMax;
    private final int window;
    private final boolean splits; // whether max-speech can split (else possible ends are never used)
    private long chunks; // probabilities seen
    private boolean triggered;
    private long start = -1; // -1: no open segment
    private long tempEnd, prevEnd, nextStart; // 0 doubles as "unset", as in the reference
    private final List<long[]> possibleEnds = new ArrayList<>(); // {end, silence length}

    SpeechTracker(VadOptions o, int window, int sampleRate) {
        this.threshold = o.threshold();
        this.negThreshold = o.effectiveNegThreshold();
        this.window = window;
        this.minSpeech = samples(sampleRate, o.minSpeechMs());
        double pad = samples(sampleRate, o.speechPadMs());
        this.maxSpeech = sampleRate * o.maxSpeechS() - window - 2 * pad;
        this.splits = !Double.isInfinite(maxSpeech);
        this.minSilence = samples(sampleRate, o.minSilenceMs());
        this.minSilenceAtMax = sampleRate * VadOptions.MIN_SILENCE_AT_MAX_SPEECH_MS / 1000.0;
    }

    /** {@code ms} milliseconds in samples, as Python's {@code sampling_rate * ms / 1000} (exact product, one rounding). */
    static double samples(int sampleRate, long ms) {
        return (double) ((long) sampleRate * ms) / 1000.0;
    }

    /** Feeds the next chunk's probability; reports the segments it closes. */
    void accept(double p, Closed out) {
        long pos = (long) window * chunks++;
        if (p >= threshold && tempEnd != 0) {
            long silence = pos - tempEnd;
            if (splits && silence > minSilenceAtMax) possibleEnds.add(new long[] {tempEnd, silence});
            tempEnd = 0;
            if (nextStart < prevEnd) nextStart = pos;
        }
        if (p >= threshold && !triggered) {
            triggered = true;
            start = pos;
            return;
        }
        if (triggered && pos - start > maxSpeech) {
            if (!possibleEnds.isEmpty()) {
                long[] best = possibleEnds.getFirst();
                for (long[] e : possibleEnds) if (e[1] > best[1]) best = e; // the first longest, like Python's max
                prevEnd = best[0];
                out.segment(start, prevEnd);
                start = -1;
                nextStart = prevEnd + best[1];
                if (nextStart < prevEnd + pos) start = nextStart; // already past that silence and still speech
                else triggered = false;
                long cut = nextStart;
                possibleEnds.removeIf(e -> e[0] <= cut);
                prevEnd = nextStart = tempEnd = 0;
            } else {
                out.segment(start, pos);
                start = -1;
                prevEnd = nextStart = tempEnd = 0;
                triggered = false;
                possibleEnds.clear();
                return;
            }
        }
        if (p < negThreshold && triggered) {
            if (tempEnd == 0) tempEnd = pos;
            if (pos - tempEnd < minSilence) return;
            if (tempEnd - start > minSpeech) out.segment(start, tempEnd);
            start = -1;
            prevEnd = nextStart = tempEnd = 0;
            triggered = false;
            possibleEnds.clear();
        }
    }

    /** Closes a segment still open when the audio ends after {@code audioSamples}, if it is long enough. */
    void finish(long audioSamples, Closed out) {
        if (start >= 0 && audioSamples - start > minSpeech) out.segment(start, audioSamples);
        start = -1;
        triggered = false;
        prevEnd = nextStart = tempEnd = 0;
        possibleEnds.clear();
    }

    /** Where the open segment starts; -1 when none is open. */
    long openStart() {
        return start;
    }

    /**
     * Whether the open segment will be reported whatever comes next: its end can only be at or
     * after the silence that began (or, in speech, after the chunks seen so far, all of them
     * complete), and that is already longer than min-speech. A max-speech split reports it anyway.
     */
    boolean openIsCertain() {
        if (start < 0) return false;
        long earliestEnd = tempEnd != 0 ? tempEnd : (long) window * chunks;
        return earliestEnd - start > minSpeech;
    }

    /** Samples covered by the chunks seen so far. */
    long position() {
        return (long) window * chunks;
    }

    void reset() {
        chunks = 0;
        triggered = false;
        start = -1;
        prevEnd = nextStart = tempEnd = 0;
        possibleEnds.clear();
    }
}
