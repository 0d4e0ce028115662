package dev.audioengine.model.task;

import java.util.List;

/**
 * The text of one decoded window, in samples of the recognizer's rate (end exclusive).
 *
 * @param startSample the window's first sample, from the start of the audio, {@code >= 0}
 * @param endSample one past its last sample, {@code >= startSample}
 * @param sampleRate the recognizer's rate, to turn samples into seconds
 * @param text what was said, stripped of surrounding space; empty when the decoder heard no words
 * @param tokens the token ids the decoder produced (without the start and end tokens)
 */
public record TranscriptSegment(long startSample, long endSample, int sampleRate, String text, List<Integer> tokens) {
    /**
     * Checks the range, strips the text and copies the tokens.
     *
     * @param startSample {@code >= 0}
     * @param endSample {@code >= startSample}
     * @param sampleRate the recognizer's rate
     * @param text the decoded text; stripped
     * @param tokens the token ids; copied
     * @throws IllegalArgumentException if the range is negative or reversed
     * @throws NullPointerException if text or tokens is null
     */
    public TranscriptSegment {
        if (endSample < startSample || startSample < 0)
            throw new IllegalArgumentException("segment [" + startSample + ", " + endSample + ")");
        text = text.strip();
        tokens = List.copyOf(tokens);
    }

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
