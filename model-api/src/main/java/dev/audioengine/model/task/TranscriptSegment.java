package dev.audioengine.model.task;

import java.util.List;

/**
 * The text of one decoded window, in samples of the recognizer's rate (end exclusive).
 *
 * @param tokens the token ids the decoder produced (without the start and end tokens)
 */
public record TranscriptSegment(long startSample, long endSample, int sampleRate, String text, List<Integer> tokens) {
    public TranscriptSegment {
        if (endSample < startSample || startSample < 0)
            throw new IllegalArgumentException("segment [" + startSample + ", " + endSample + ")");
        text = text.strip();
        tokens = List.copyOf(tokens);
    }

    public double startSeconds() {
        return startSample / (double) sampleRate;
    }

    public double endSeconds() {
        return endSample / (double) sampleRate;
    }
}
