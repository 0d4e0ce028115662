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
 * @param words the segment's words with their times when word timestamps were asked for and the recognizer aligns
 *     words ({@link AsrOptions#wordTimestamps()}); empty otherwise
 * @param language the language the segment was decoded in (a code such as "en"; the one detected when the request
 *     said "auto"), or null when the recognizer does not say
 * @param decoding how the window's text was decoded (temperature, mean log-probability, compression ratio, no-speech
 *     probability), or null when the recognizer does not sample (Moonshine decodes greedily, with no fallback)
 */
public record TranscriptSegment(
        long startSample,
        long endSample,
        int sampleRate,
        String text,
        List<Integer> tokens,
        List<TranscriptWord> words,
        String language,
        DecodingStats decoding) {
    /**
     * Checks the range, strips the text and copies the tokens and words.
     *
     * @param startSample {@code >= 0}
     * @param endSample {@code >= startSample}
     * @param sampleRate the recognizer's rate
     * @param text the decoded text; stripped
     * @param tokens the token ids; copied
     * @param words the timed words; copied
     * @param language the language code, or null
     * @param decoding the decoder's statistics, or null
     * @throws IllegalArgumentException if the range is negative or reversed
     * @throws NullPointerException if text, tokens or words is null
     */
    public TranscriptSegment {
        if (endSample < startSample || startSample < 0)
            throw new IllegalArgumentException("segment [" + startSample + ", " + endSample + ")");
        text = text.strip();
        tokens = List.copyOf(tokens);
        words = List.copyOf(words);
    }

    /**
     * A segment without decoding statistics.
     *
     * @param startSample {@code >= 0}
     * @param endSample {@code >= startSample}
     * @param sampleRate the recognizer's rate
     * @param text the decoded text; stripped
     * @param tokens the token ids; copied
     * @param words the timed words; copied
     * @param language the language code, or null
     * @throws IllegalArgumentException if the range is negative or reversed
     * @throws NullPointerException if text, tokens or words is null
     */
    public TranscriptSegment(
            long startSample,
            long endSample,
            int sampleRate,
            String text,
            List<Integer> tokens,
            List<TranscriptWord> words,
            String language) {
        this(startSample, endSample, sampleRate, text, tokens, words, language, null);
    }

    /**
     * A segment without words or language.
     *
     * @param startSample {@code >= 0}
     * @param endSample {@code >= startSample}
     * @param sampleRate the recognizer's rate
     * @param text the decoded text; stripped
     * @param tokens the token ids; copied
     * @throws IllegalArgumentException if the range is negative or reversed
     * @throws NullPointerException if text or tokens is null
     */
    public TranscriptSegment(long startSample, long endSample, int sampleRate, String text, List<Integer> tokens) {
        this(startSample, endSample, sampleRate, text, tokens, List.of(), null, null);
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
