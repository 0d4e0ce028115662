package dev.audioengine.audio;

/**
 * Audio holding a NaN or infinite sample. No model output means anything after one (a recurrent
 * state that has seen a NaN stays NaN), so such input is refused rather than run.
 */
public final class NonFiniteSampleException extends AudioFormatException {
    private final long sampleIndex;
    private final double seconds;

    NonFiniteSampleException(String message, long sampleIndex, double seconds) {
        super(message);
        this.sampleIndex = sampleIndex;
        this.seconds = seconds;
    }

    /** Index of the first offending sample (mono frames, at the source's own rate). */
    public long sampleIndex() {
        return sampleIndex;
    }

    /** Time of the first offending sample, in seconds from the start. */
    public double seconds() {
        return seconds;
    }
}
