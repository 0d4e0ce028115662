package dev.audioengine.model.task;

/**
 * One word of a transcript with its time, as a recognizer that aligns words reports it (Whisper's word timestamps:
 * cross-attention of its alignment heads aligned to the audio by dynamic time warping).
 *
 * @param text the word as decoded, with its leading space when it had one and punctuation attached (" Hello,")
 * @param start where the word starts, in seconds from the start of the audio, {@code >= 0}
 * @param end where it ends, in seconds from the start of the audio, {@code >= start}
 * @param probability the mean probability of the word's tokens, in [0, 1]
 */
public record TranscriptWord(String text, double start, double end, double probability) {
    /**
     * Checks the times.
     *
     * @param text the word, not null
     * @param start seconds, {@code >= 0}
     * @param end seconds, {@code >= start}
     * @param probability in [0, 1]
     * @throws IllegalArgumentException if the times are negative, reversed or NaN
     * @throws NullPointerException if text is null
     */
    public TranscriptWord {
        java.util.Objects.requireNonNull(text, "text");
        if (!(start >= 0 && end >= start)) throw new IllegalArgumentException("word [" + start + ", " + end + "]");
    }
}
