package dev.audioengine.model.task;

/** A stretch of speech in samples at {@code sampleRate}; end is exclusive. */
public record SpeechSegment(long startSample, long endSample, int sampleRate) {
    public double startSeconds() {
        return startSample / (double) sampleRate;
    }

    public double endSeconds() {
        return endSample / (double) sampleRate;
    }
}
