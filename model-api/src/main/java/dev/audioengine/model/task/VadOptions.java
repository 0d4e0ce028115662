package dev.audioengine.model.task;

/**
 * Silero's segmentation options (get_speech_timestamps' names and defaults). Thresholds are
 * doubles because Silero compares probabilities with Python floats.
 *
 * @param threshold     probability at or above which a chunk is speech (0.5)
 * @param negThreshold  below which speech ends; NaN means max(threshold − 0.15, 0.01)
 * @param minSpeechMs   shorter segments are dropped (250)
 * @param minSilenceMs  silence needed before a segment ends (100)
 * @param speechPadMs   padding added on each side (30)
 * @param maxSpeechS    longer segments are split (infinity: no limit)
 */
public record VadOptions(double threshold, double negThreshold, int minSpeechMs, int minSilenceMs, int speechPadMs, double maxSpeechS) {
    /** Silence that a split at max_speech may use (Silero's min_silence_at_max_speech, 98 ms). */
    public static final double MIN_SILENCE_AT_MAX_SPEECH_MS = 98;

    public static final VadOptions DEFAULTS = new VadOptions(0.5, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY);

    public VadOptions {
        if (!(threshold > 0 && threshold < 1)) throw new IllegalArgumentException("threshold must be in (0, 1), got " + threshold);
        if (!Double.isNaN(negThreshold) && !(negThreshold >= 0 && negThreshold <= threshold)) {
            throw new IllegalArgumentException("neg-threshold must be in [0, threshold], got " + negThreshold);
        }
        if (minSpeechMs < 0 || minSilenceMs < 0 || speechPadMs < 0) {
            throw new IllegalArgumentException("durations must not be negative: min-speech " + minSpeechMs + " ms, min-silence "
                    + minSilenceMs + " ms, speech-pad " + speechPadMs + " ms");
        }
        if (!(maxSpeechS > 0)) throw new IllegalArgumentException("max-speech must be positive, got " + maxSpeechS + " s");
    }

    /** The negative threshold in effect. */
    public double effectiveNegThreshold() { return Double.isNaN(negThreshold) ? Math.max(threshold - 0.15, 0.01) : negThreshold; }
}
