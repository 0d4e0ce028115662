package dev.audioengine.model.task;

/**
 * Silero's segmentation options (get_speech_timestamps' names and defaults). Thresholds are
 * doubles because Silero compares probabilities with Python floats.
 *
 * @param threshold     probability at or above which a chunk is speech (0.5)
 * @param negThreshold  below which speech ends, below threshold; NaN means max(threshold − 0.15, 0.01)
 * @param minSpeechMs   shorter segments are dropped (250)
 * @param minSilenceMs  silence needed before a segment ends (100)
 * @param speechPadMs   padding added on each side (30)
 * @param maxSpeechS    longer segments are split (infinity: no limit)
 */
public record VadOptions(
        double threshold, double negThreshold, int minSpeechMs, int minSilenceMs, int speechPadMs, double maxSpeechS) {
    /** Silence that a split at max_speech may use (Silero's min_silence_at_max_speech, 98 ms). */
    public static final double MIN_SILENCE_AT_MAX_SPEECH_MS = 98;

    /** Silero's own defaults: threshold 0.5, 250 ms minimum speech, 100 ms minimum silence, 30 ms padding. */
    public static final VadOptions DEFAULTS = new VadOptions(0.5, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY);

    /**
     * Checks every option's range, naming the option as the command line does, so that a caller
     * can report a usage error: threshold in (0, 1), neg-threshold in [0, threshold), durations
     * not negative, max-speech positive (infinity: no limit). Durations are converted to samples
     * in long arithmetic, so any int is usable.
     */
    public VadOptions {
        if (!(threshold > 0 && threshold < 1))
            throw new IllegalArgumentException("threshold must be in (0, 1), got " + threshold);
        if (!Double.isNaN(negThreshold) && !(negThreshold >= 0 && negThreshold < threshold)) {
            throw new IllegalArgumentException("neg-threshold must be below the threshold (" + threshold
                    + ") and not negative, got " + negThreshold);
        }
        requireNotNegative("min-speech-ms", minSpeechMs);
        requireNotNegative("min-silence-ms", minSilenceMs);
        requireNotNegative("speech-pad-ms", speechPadMs);
        if (!(maxSpeechS > 0))
            throw new IllegalArgumentException("max-speech-s must be positive (infinity: no limit), got " + maxSpeechS);
    }

    private static void requireNotNegative(String name, int ms) {
        if (ms < 0) throw new IllegalArgumentException(name + " must not be negative, got " + ms);
    }

    /**
     * The negative threshold in effect.
     *
     * @return {@code negThreshold}, or max(threshold − 0.15, 0.01) when it is NaN
     */
    public double effectiveNegThreshold() {
        return Double.isNaN(negThreshold) ? Math.max(threshold - 0.15, 0.01) : negThreshold;
    }
}
