package dev.audioengine.model.task;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * How a {@link KeywordSpotter} turns per-frame scores into detections.
 * <p>
 * A keyword is detected at the first frame whose score is at least {@code threshold}. One utterance is one detection:
 * after a detection the keyword is not detected again until {@code refractorySeconds} have passed <em>and</em> its
 * score has been below the threshold at some frame since (so a score that stays high for longer than the refractory
 * period does not fire twice). Each keyword has its own refractory period: "hey jarvis, what's the weather" detects both
 * {@code hey_jarvis} and {@code weather}.
 *
 * @param threshold         the score at or above which a frame detects a keyword, in (0, 1); default 0.5
 *                          (openWakeWord's)
 * @param refractorySeconds how long after a detection the same keyword cannot be detected again, at least 0; default
 *                          2 s (the browser openWakeWord wrapper's cooldown)
 * @param keywords          the keywords to report, by name, in any order; empty means every keyword of the model
 */
public record KeywordOptions(double threshold, double refractorySeconds, List<String> keywords) {
    /** The threshold used when none is given: 0.5. */
    public static final double DEFAULT_THRESHOLD = 0.5;

    /** The refractory period used when none is given: 2 s. */
    public static final double DEFAULT_REFRACTORY_SECONDS = 2.0;

    /** Every keyword, threshold 0.5, refractory period 2 s. */
    public static final KeywordOptions DEFAULTS =
            new KeywordOptions(DEFAULT_THRESHOLD, DEFAULT_REFRACTORY_SECONDS, List.of());

    /**
     * Checks the ranges, naming the option as the command line does.
     *
     * @throws IllegalArgumentException when the threshold is not in (0, 1), the refractory period is negative or not
     *                                  finite, or a keyword is blank or named twice
     * @throws NullPointerException     when {@code keywords} or one of them is null
     */
    public KeywordOptions {
        if (!(threshold > 0 && threshold < 1))
            throw new IllegalArgumentException("threshold must be in (0, 1), got " + threshold);
        if (!(refractorySeconds >= 0) || Double.isInfinite(refractorySeconds))
            throw new IllegalArgumentException(
                    "refractory period must be a finite number of seconds, at least 0, got " + refractorySeconds);
        keywords = List.copyOf(keywords);
        if (keywords.stream().anyMatch(String::isBlank))
            throw new IllegalArgumentException("a keyword name is blank: " + keywords);
        if (new LinkedHashSet<>(keywords).size() != keywords.size())
            throw new IllegalArgumentException("a keyword is named twice: " + keywords);
    }

    /**
     * These options with another threshold.
     *
     * @param value the new threshold, in (0, 1)
     * @return a copy with that threshold
     * @throws IllegalArgumentException when {@code value} is out of range
     */
    public KeywordOptions withThreshold(double value) {
        return new KeywordOptions(value, refractorySeconds, keywords);
    }

    /**
     * These options with another refractory period.
     *
     * @param seconds the new period, finite and at least 0
     * @return a copy with that refractory period
     * @throws IllegalArgumentException when {@code seconds} is out of range
     */
    public KeywordOptions withRefractorySeconds(double seconds) {
        return new KeywordOptions(threshold, seconds, keywords);
    }

    /**
     * These options reporting only some keywords.
     *
     * @param names the keywords to report; empty for all
     * @return a copy with that selection
     * @throws IllegalArgumentException when a name is blank or repeated
     */
    public KeywordOptions withKeywords(List<String> names) {
        return new KeywordOptions(threshold, refractorySeconds, names);
    }
}
