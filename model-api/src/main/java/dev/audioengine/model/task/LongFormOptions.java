package dev.audioengine.model.task;

/**
 * How a recognizer that decodes fixed windows (Whisper) walks through long audio and guards its windows against
 * failed decodes and made-up text: whisper.cpp's {@code whisper_full} (and openai-whisper's {@code transcribe()})
 * options, with whisper.cpp's defaults ({@link #DEFAULTS}).
 *
 * @param segmenter                 how long audio is cut into windows: {@link Segmenter#WHISPER} (sequential 30 s
 *                                  windows, each starting where the previous one's last complete timestamp pair
 *                                  ends), {@link Segmenter#VAD} (the voice activity detector's windows), or null for
 *                                  the model's own choice (Whisper: WHISPER offline, VAD for live streams)
 * @param temperature               the first decoding's temperature, in [0, 1]; 0 decodes greedily (or by beam
 *                                  search), above 0 samples
 * @param temperatureIncrement      when a window's decoding fails the checks below, it is decoded again at the
 *                                  temperature raised by this much, up to 1; 0 never decodes again (no fallback);
 *                                  in [0, 1]
 * @param bestOf                    at a temperature above 0, this many sampled decodings, the best kept
 *                                  (whisper.cpp's {@code best_of}); in [1, 8]
 * @param logprobThreshold          a decoding whose mean token log-probability is below this is decoded again
 *                                  (unless the window looks silent); natural log
 * @param noSpeechThreshold         a window whose no-speech probability is above this, and whose decoding's mean
 *                                  log-probability is below {@code logprobThreshold}, is silence: its text is
 *                                  dropped; in [0, 1]
 * @param entropyThreshold          a decoding of more than 32 tokens whose last 32 tokens' entropy (nats) is below
 *                                  this is a repetition loop and fails (whisper.cpp's test); {@code >= 0}
 * @param compressionRatioThreshold a decoding whose text's zlib compression ratio is above this is decoded again
 *                                  (openai-whisper's test; whisper.cpp has none): positive, or +∞ for off
 * @param conditionOnPrevious       each window is prompted with the text of the windows before it (after the
 *                                  previous-text token); false prompts only the first window with the initial prompt
 */
public record LongFormOptions(
        Segmenter segmenter,
        double temperature,
        double temperatureIncrement,
        int bestOf,
        double logprobThreshold,
        double noSpeechThreshold,
        double entropyThreshold,
        double compressionRatioThreshold,
        boolean conditionOnPrevious) {
    /**
     * How long audio is cut into windows.
     */
    public enum Segmenter {
        /** Whisper's own: sequential 30 s windows, the next starting at the last complete timestamp pair. */
        WHISPER,
        /** The voice activity detector's speech segments, joined into windows ({@link AsrOptions#vad()}). */
        VAD;

        /**
         * The segmenter a command line names.
         *
         * @param name "whisper" or "vad", any case
         * @return the segmenter
         * @throws IllegalArgumentException for another name
         */
        public static Segmenter of(String name) {
            return switch (name.toLowerCase(java.util.Locale.ROOT)) {
                case "whisper" -> WHISPER;
                case "vad" -> VAD;
                default -> throw new IllegalArgumentException("segmenter must be whisper or vad, got \"" + name + "\"");
            };
        }
    }

    /**
     * whisper.cpp's defaults (whisper-cli's): the model's own segmenter, temperature 0 raised by 0.2 on failure, best
     * of 5, mean log-probability threshold −1, no-speech threshold 0.6, entropy threshold 2.4, no compression-ratio
     * test, conditioning on the previous windows' text.
     */
    public static final LongFormOptions DEFAULTS =
            new LongFormOptions(null, 0, 0.2, 5, -1.0, 0.6, 2.4, Double.POSITIVE_INFINITY, true);

    /**
     * Checks every value's range, naming it as the command line does.
     *
     * @param segmenter null or a segmenter
     * @param temperature in [0, 1]
     * @param temperatureIncrement in [0, 1]
     * @param bestOf in [1, 8]
     * @param logprobThreshold any number but NaN
     * @param noSpeechThreshold in [0, 1]
     * @param entropyThreshold {@code >= 0}
     * @param compressionRatioThreshold positive (+∞: off)
     * @param conditionOnPrevious whether windows are prompted with the text before them
     * @throws IllegalArgumentException if a value is out of range (NaN included)
     */
    public LongFormOptions {
        if (!(temperature >= 0 && temperature <= 1))
            throw new IllegalArgumentException("temperature must be in [0, 1], got " + temperature);
        if (!(temperatureIncrement >= 0 && temperatureIncrement <= 1))
            throw new IllegalArgumentException("temperature-increment must be in [0, 1], got " + temperatureIncrement);
        if (bestOf < 1 || bestOf > 8) throw new IllegalArgumentException("best-of must be in [1, 8], got " + bestOf);
        if (Double.isNaN(logprobThreshold))
            throw new IllegalArgumentException("logprob-threshold must be a number, got NaN");
        if (!(noSpeechThreshold >= 0 && noSpeechThreshold <= 1))
            throw new IllegalArgumentException("no-speech-threshold must be in [0, 1], got " + noSpeechThreshold);
        if (!(entropyThreshold >= 0))
            throw new IllegalArgumentException("entropy-threshold must not be negative, got " + entropyThreshold);
        if (!(compressionRatioThreshold > 0))
            throw new IllegalArgumentException(
                    "compression-ratio-threshold must be positive, got " + compressionRatioThreshold);
    }

    /**
     * The temperatures a window is decoded at, in order, until one passes the checks: whisper.cpp's
     * {@code t0, t0 + inc, ...} while below 1 + 1e-6, computed in single precision as whisper.cpp does; only
     * {@code t0} without fallback.
     *
     * @return one temperature or more, each in [0, 1]
     */
    public float[] temperatures() {
        if (temperatureIncrement <= 0) return new float[] {(float) temperature};
        java.util.List<Float> out = new java.util.ArrayList<>();
        for (float t = (float) temperature; t < 1.0f + 1e-6f; t += (float) temperatureIncrement) out.add(t);
        float[] a = new float[out.size()];
        for (int i = 0; i < a.length; i++) a[i] = out.get(i);
        return a;
    }

    /**
     * These options with another segmenter.
     *
     * @param s the segmenter, or null for the model's own choice
     * @return the same options but the segmenter
     */
    public LongFormOptions withSegmenter(Segmenter s) {
        return new LongFormOptions(
                s,
                temperature,
                temperatureIncrement,
                bestOf,
                logprobThreshold,
                noSpeechThreshold,
                entropyThreshold,
                compressionRatioThreshold,
                conditionOnPrevious);
    }

    /**
     * These options with other temperatures.
     *
     * @param first the first temperature, in [0, 1]
     * @param increment the step on failure, in [0, 1]; 0 turns fallback off
     * @return the same options but the temperatures
     * @throws IllegalArgumentException if a value is out of range
     */
    public LongFormOptions withTemperatures(double first, double increment) {
        return new LongFormOptions(
                segmenter,
                first,
                increment,
                bestOf,
                logprobThreshold,
                noSpeechThreshold,
                entropyThreshold,
                compressionRatioThreshold,
                conditionOnPrevious);
    }

    /**
     * These options with another number of sampled decodings at temperatures above 0.
     *
     * @param n in [1, 8]
     * @return the same options but best-of
     * @throws IllegalArgumentException if {@code n} is out of range
     */
    public LongFormOptions withBestOf(int n) {
        return new LongFormOptions(
                segmenter,
                temperature,
                temperatureIncrement,
                n,
                logprobThreshold,
                noSpeechThreshold,
                entropyThreshold,
                compressionRatioThreshold,
                conditionOnPrevious);
    }

    /**
     * These options with other thresholds.
     *
     * @param logprob the mean log-probability threshold (natural log)
     * @param noSpeech the no-speech probability threshold, in [0, 1]
     * @param entropy the repetition entropy threshold (nats), {@code >= 0}
     * @param compressionRatio the compression-ratio threshold, positive; +∞ for off
     * @return the same options but the thresholds
     * @throws IllegalArgumentException if a value is out of range
     */
    public LongFormOptions withThresholds(double logprob, double noSpeech, double entropy, double compressionRatio) {
        return new LongFormOptions(
                segmenter,
                temperature,
                temperatureIncrement,
                bestOf,
                logprob,
                noSpeech,
                entropy,
                compressionRatio,
                conditionOnPrevious);
    }

    /**
     * These options conditioning each window on the text before it, or not.
     *
     * @param on whether to condition on the previous windows' text
     * @return the same options but the conditioning
     */
    public LongFormOptions withConditionOnPrevious(boolean on) {
        return new LongFormOptions(
                segmenter,
                temperature,
                temperatureIncrement,
                bestOf,
                logprobThreshold,
                noSpeechThreshold,
                entropyThreshold,
                compressionRatioThreshold,
                on);
    }
}
