package dev.audioengine.model.task;

import java.util.Objects;

/**
 * One keyword heard: which, when and how sure.
 *
 * @param keyword the keyword's name, as {@link KeywordSpotter#keywords()} spells it
 * @param frame   the index of the score frame that detected it, from 0 at the start of the audio
 * @param seconds the end of that frame in seconds from the start of the audio (frame + 1 frames): the moment the
 *                detection could first be made
 * @param score   the keyword's score in that frame, at least the threshold
 */
public record KeywordDetection(String keyword, long frame, double seconds, float score) {
    /**
     * Checks the fields.
     *
     * @throws NullPointerException     when {@code keyword} is null
     * @throws IllegalArgumentException when the frame or time is negative
     */
    public KeywordDetection {
        Objects.requireNonNull(keyword, "keyword");
        if (frame < 0 || !(seconds >= 0))
            throw new IllegalArgumentException("negative frame " + frame + " or time " + seconds);
    }
}
