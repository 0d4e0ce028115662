package dev.audioengine.model.task;

/**
 * A segment boundary found while streaming: speech started or ended at {@code sample}.
 *
 * @param kind whether speech starts or ends here
 * @param sample the boundary, counted in samples from the start of the stream (or its last reset)
 * @param sampleRate the stream's rate, to turn {@code sample} into seconds
 */
public record SpeechEvent(Kind kind, long sample, int sampleRate) {
    /** Which boundary. */
    public enum Kind {
        /** Speech starts at the sample. */
        START,
        /** Speech ends at the sample (exclusive). */
        END
    }

    /**
     * The boundary in seconds.
     *
     * @return {@code sample / sampleRate}
     */
    public double seconds() {
        return sample / (double) sampleRate;
    }
}
