package dev.audioengine.model.task;

/** A segment boundary found while streaming: speech started or ended at {@code sample}. */
public record SpeechEvent(Kind kind, long sample, int sampleRate) {
    public enum Kind {
        START,
        END
    }

    public double seconds() {
        return sample / (double) sampleRate;
    }
}
