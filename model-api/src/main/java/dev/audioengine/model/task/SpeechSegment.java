package dev.audioengine.model.task;

/**
 * A stretch of speech in samples at {@code sampleRate}; end is exclusive.
 *
 * @param startSample the first sample of speech, padding included, from the start of the audio
 * @param endSample one past the last sample of speech
 * @param sampleRate the rate the samples are counted at (the detector's, which may differ from a file's own rate)
 */
public record SpeechSegment(long startSample, long endSample, int sampleRate) {
    /**
     * The start in seconds.
     *
     * @return {@code startSample / sampleRate}
     */
    public double startSeconds() {
        return startSample / (double) sampleRate;
    }

    /**
     * The end in seconds.
     *
     * @return {@code endSample / sampleRate}
     */
    public double endSeconds() {
        return endSample / (double) sampleRate;
    }
}
