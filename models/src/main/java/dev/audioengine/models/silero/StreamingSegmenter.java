package dev.audioengine.models.silero;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.VadOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Segment boundaries from probabilities as they arrive, giving exactly the segments that
 * get_speech_timestamps finds in the same probabilities (min-speech, max-speech and padding
 * included), each boundary as soon as it can no longer change:
 * <ul>
 * <li>START comes once the segment is certain to be kept: immediately with min-speech 0 (Silero's
 *     VADIterator), otherwise once it has lasted min-speech, or when a max-speech split closes it.</li>
 * <li>END comes once the segment has closed (silence of min-silence, or a max-speech split) and
 *     its padding is known: at once when the silence after it is already at least twice the pad
 *     (always with the defaults), else when the next kept segment starts and the two share the gap.</li>
 * <li>{@link #finish} settles everything at the end of the audio: a segment still open ends there
 *     if it is long enough, and the last end is clamped to the audio.</li>
 * </ul>
 * Sample positions are those of the offline call; with min-speech 0 and a pad of at most half of
 * min-silence plus one chunk, the events are VADIterator's. Not thread-safe.
 */
final class StreamingSegmenter {
    private final SpeechTracker tracker;
    private final double pad;
    private final int sampleRate;
    private final List<long[]> closed = new ArrayList<>(2); // raw segments the current step closed
    private final SpeechTracker.Closed onClose =
            (start, end) -> closed.add(new long[] {start, end}); // one instance, not one per chunk
    private long pendingEnd = -1; // raw end of a kept segment whose END is not out yet; -1: none
    private long startedAt = -1; // raw start of the open segment whose START is out; -1: none

    StreamingSegmenter(VadOptions o, int window, int sampleRate) {
        this.tracker = new SpeechTracker(o, window, sampleRate);
        this.pad = SpeechTracker.samples(sampleRate, o.speechPadMs());
        this.sampleRate = sampleRate;
    }

    /** Feeds one complete chunk's probability; appends the boundaries it settles to {@code out}. */
    void accept(float probability, List<SpeechEvent> out) {
        tracker.accept(probability, onClose);
        emitClosed(out);
        long open = tracker.openStart();
        if (open >= 0 && startedAt != open && tracker.openIsCertain()) {
            start(open, out);
            startedAt = open;
        }
        if (pendingEnd >= 0) {
            long nextStartAtLeast = open >= 0 ? open : tracker.position();
            if (nextStartAtLeast - pendingEnd >= 2 * pad) end((long) (pendingEnd + pad), out); // no gap to share
        }
    }

    /**
     * The form for options under which a chunk settles at most one boundary (min-speech 0, no
     * max-speech, a pad of at most half of min-silence plus one chunk: Silero's VADIterator);
     * returns it, or null. Fails if the chunk settled two.
     */
    SpeechEvent accept(float probability) {
        List<SpeechEvent> events = new ArrayList<>(2);
        accept(probability, events);
        if (events.size() > 1)
            throw new IllegalStateException("this chunk settled " + events + ": use accept(probability, events)");
        return events.isEmpty() ? null : events.getFirst();
    }

    /**
     * Ends the audio after {@code totalSamples}: feeds the last, zero-padded partial chunk's
     * probability when there is one ({@code NaN} when the audio ended on a chunk boundary), then
     * settles every open boundary.
     */
    void finish(float lastPartialProbability, long totalSamples, List<SpeechEvent> out) {
        if (!Float.isNaN(lastPartialProbability)) {
            tracker.accept(lastPartialProbability, onClose);
            emitClosed(out);
        }
        tracker.finish(totalSamples, onClose);
        emitClosed(out);
        if (pendingEnd >= 0) end((long) Math.min(totalSamples, pendingEnd + pad), out);
        reset();
    }

    void reset() {
        tracker.reset();
        closed.clear();
        pendingEnd = startedAt = -1;
    }

    /** Every segment the tracker closed in this step is kept: out with its START (if not yet) and keep its END pending. */
    private void emitClosed(List<SpeechEvent> out) {
        for (long[] c : closed) {
            if (startedAt != c[0]) start(c[0], out);
            startedAt = -1;
            pendingEnd = c[1];
        }
        closed.clear();
    }

    /** START of a kept segment at raw {@code start}; settles the END before it, sharing a gap shorter than two pads. */
    private void start(long start, List<SpeechEvent> out) {
        long from;
        if (pendingEnd >= 0) {
            long silence = start - pendingEnd;
            if (silence < 2 * pad) {
                end(pendingEnd + Math.floorDiv(silence, 2), out);
                from = Math.max(0, start - Math.floorDiv(silence, 2));
            } else {
                end((long) (pendingEnd + pad), out);
                from = (long) Math.max(0, start - pad);
            }
        } else {
            from = (long) Math.max(0, start - pad);
        }
        out.add(new SpeechEvent(SpeechEvent.Kind.START, from, sampleRate));
    }

    private void end(long sample, List<SpeechEvent> out) {
        out.add(new SpeechEvent(SpeechEvent.Kind.END, sample, sampleRate));
        pendingEnd = -1;
    }
}
