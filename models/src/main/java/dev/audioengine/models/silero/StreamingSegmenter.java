package dev.audioengine.models.silero;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.VadOptions;

/**
 * Segment boundaries from probabilities as they arrive, with the semantics of Silero's
 * VADIterator: speech starts at the first chunk at or above the threshold (moved back by the
 * pad), and ends once probabilities stayed below neg-threshold for min-silence (moved forward
 * by the pad). {@link #finish} closes a segment still open when the audio ends.
 */
final class StreamingSegmenter {
    private final double threshold, negThreshold, minSilence, pad;
    private final int window, sampleRate;
    private boolean triggered;
    private long tempEnd, current;

    StreamingSegmenter(VadOptions o, int window, int sampleRate) {
        this.threshold = o.threshold();
        this.negThreshold = o.effectiveNegThreshold();
        this.minSilence = sampleRate * o.minSilenceMs() / 1000.0;
        this.pad = sampleRate * o.speechPadMs() / 1000.0;
        this.window = window;
        this.sampleRate = sampleRate;
    }

    /** Feeds one chunk's probability; returns the boundary it completes, or null. */
    SpeechEvent accept(float probability) {
        current += window;
        if (probability >= threshold && tempEnd != 0) tempEnd = 0;
        if (probability >= threshold && !triggered) {
            triggered = true;
            return new SpeechEvent(SpeechEvent.Kind.START, (long) Math.max(0, current - pad - window), sampleRate);
        }
        if (probability < negThreshold && triggered) {
            if (tempEnd == 0) tempEnd = current;
            if (current - tempEnd < minSilence) return null;
            long end = (long) (tempEnd + pad - window);
            tempEnd = 0;
            triggered = false;
            return new SpeechEvent(SpeechEvent.Kind.END, end, sampleRate);
        }
        return null;
    }

    /** Ends an open segment at the end of the audio ({@code totalSamples}); null when none is open. */
    SpeechEvent finish(long totalSamples) {
        if (!triggered) return null;
        triggered = false;
        tempEnd = 0;
        return new SpeechEvent(SpeechEvent.Kind.END, totalSamples, sampleRate);
    }

    void reset() {
        triggered = false;
        tempEnd = 0;
        current = 0;
    }
}
