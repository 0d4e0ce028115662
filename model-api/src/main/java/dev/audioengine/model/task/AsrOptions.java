package dev.audioengine.model.task;

/**
 * How a recognizer segments and decodes.
 *
 * @param vad                 how speech is found in long audio (Silero's options; 0.5 threshold)
 * @param maxWindowSeconds    speech segments are joined into windows at most this long; a longer segment is split
 * @param mergeGapSeconds     segments closer than this are joined into one window (when the window stays short enough;
 *                            a window that would grow too long is cut at its longest pause)
 * @param tokensPerSecond     the decoder stops after this many tokens per second of window (Moonshine's rule: 6)
 * @param partialEverySeconds in a live stream, the open segment is re-transcribed at most this often
 * @param language            the language spoken, as a code ("en", "de"), "auto" to detect it per window, or null
 *                            for the model's own default (multilingual Whisper detects; English-only models hear
 *                            English); a model that cannot hear it refuses the request
 * @param translate           translate the speech into English text rather than transcribe it (Whisper's translate
 *                            task); a model that cannot refuses the request
 * @param beamSize            1 decodes greedily; N &gt; 1 asks for beam search with N beams (Whisper: whisper.cpp's
 *                            beam search); a model without beam search refuses N &gt; 1
 * @param prompt              text the speech continues (Whisper's initial prompt: names, spelling, style), given to
 *                            every window; null for none; a model that takes no prompt refuses one
 * @param wordTimestamps      time each word ({@link TranscriptSegment#words()}); a model that cannot align words
 *                            refuses the request
 * @param alignmentHeads      which attention heads align words (Whisper: a preset name such as "tiny" or
 *                            "large-v3-turbo", or pairs "layer:head,layer:head"); null or "auto" for the model's own
 * @param longForm            how a fixed-window model (Whisper) walks long audio and falls back on failed windows
 *                            ({@link LongFormOptions}; whisper.cpp's defaults); models without it ignore it
 */
public record AsrOptions(
        VadOptions vad,
        double maxWindowSeconds,
        double mergeGapSeconds,
        double tokensPerSecond,
        double partialEverySeconds,
        String language,
        boolean translate,
        int beamSize,
        String prompt,
        boolean wordTimestamps,
        String alignmentHeads,
        LongFormOptions longForm) {
    /**
     * Windows of up to 10 s joined over pauses under 2 s, 6 tokens per second, partials every 0.5 s. The window limit
     * and merge gap are what docs/MOONSHINE.md's window study found best for Moonshine on long audio with pauses inside
     * sentences and between them ({@code WindowLengthStudy}).
     */
    public static final AsrOptions DEFAULTS =
            new AsrOptions(new VadOptions(0.5, Double.NaN, 250, 300, 200, Double.POSITIVE_INFINITY), 10, 2, 6, 0.5);

    /**
     * Options in the model's own language, transcribing.
     *
     * @param vad                 required
     * @param maxWindowSeconds    in [1, 60]
     * @param mergeGapSeconds     {@code >= 0}
     * @param tokensPerSecond     in (0, 50]
     * @param partialEverySeconds {@code > 0}
     * @throws IllegalArgumentException as the canonical constructor
     */
    public AsrOptions(
            VadOptions vad,
            double maxWindowSeconds,
            double mergeGapSeconds,
            double tokensPerSecond,
            double partialEverySeconds) {
        this(vad, maxWindowSeconds, mergeGapSeconds, tokensPerSecond, partialEverySeconds, null, false);
    }

    /**
     * Options decoding greedily.
     *
     * @param vad                 required
     * @param maxWindowSeconds    in [1, 60]
     * @param mergeGapSeconds     {@code >= 0}
     * @param tokensPerSecond     in (0, 50]
     * @param partialEverySeconds {@code > 0}
     * @param language            null, "auto", or a language code
     * @param translate           whether to translate into English
     * @throws IllegalArgumentException as the canonical constructor
     */
    public AsrOptions(
            VadOptions vad,
            double maxWindowSeconds,
            double mergeGapSeconds,
            double tokensPerSecond,
            double partialEverySeconds,
            String language,
            boolean translate) {
        this(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                1,
                null,
                false,
                null,
                LongFormOptions.DEFAULTS);
    }

    /**
     * Options without word timestamps and with whisper.cpp's long-form defaults ({@link LongFormOptions#DEFAULTS}).
     *
     * @param vad                 required
     * @param maxWindowSeconds    in [1, 60]
     * @param mergeGapSeconds     {@code >= 0}
     * @param tokensPerSecond     in (0, 50]
     * @param partialEverySeconds {@code > 0}
     * @param language            null, "auto", or a language code
     * @param translate           whether to translate into English
     * @param beamSize            in [1, 8]
     * @param prompt              any text, or null
     * @throws IllegalArgumentException as the canonical constructor
     */
    public AsrOptions(
            VadOptions vad,
            double maxWindowSeconds,
            double mergeGapSeconds,
            double tokensPerSecond,
            double partialEverySeconds,
            String language,
            boolean translate,
            int beamSize,
            String prompt) {
        this(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                beamSize,
                prompt,
                false,
                null,
                LongFormOptions.DEFAULTS);
    }

    /**
     * Checks every option's range, naming it as the command line does, so a caller can report a usage error.
     *
     * @param vad required
     * @param maxWindowSeconds in [1, 60]
     * @param mergeGapSeconds {@code >= 0}
     * @param tokensPerSecond in (0, 50]
     * @param partialEverySeconds {@code > 0}
     * @param language null, "auto", or a language code of 2 or 3 lowercase letters
     * @param translate whether to translate into English
     * @param beamSize in [1, 8]
     * @param prompt any text, or null
     * @param wordTimestamps whether to time each word
     * @param alignmentHeads null, "auto", a preset name or layer:head pairs (checked by the model)
     * @param longForm required
     * @throws IllegalArgumentException if vad or longForm is null or a value is out of range (NaN included)
     */
    public AsrOptions {
        if (longForm == null) throw new IllegalArgumentException("long-form options are required");
        if (beamSize < 1 || beamSize > 8)
            throw new IllegalArgumentException("beam-size must be in [1, 8], got " + beamSize);
        if (language != null && !language.matches("auto|[a-z]{2,3}"))
            throw new IllegalArgumentException(
                    "language must be a code such as en or de, or auto, got \"" + language + "\"");
        if (vad == null) throw new IllegalArgumentException("vad options are required");
        if (!(maxWindowSeconds >= 1 && maxWindowSeconds <= 60))
            throw new IllegalArgumentException("max-window-s must be in [1, 60], got " + maxWindowSeconds);
        if (!(mergeGapSeconds >= 0))
            throw new IllegalArgumentException("merge-gap-s must not be negative, got " + mergeGapSeconds);
        if (!(tokensPerSecond > 0 && tokensPerSecond <= 50))
            throw new IllegalArgumentException("tokens-per-second must be in (0, 50], got " + tokensPerSecond);
        if (!(partialEverySeconds > 0))
            throw new IllegalArgumentException("partial-every-s must be positive, got " + partialEverySeconds);
    }

    /**
     * These options with other long-form settings (segmenter, temperature fallback, thresholds, conditioning).
     *
     * @param l the long-form options, not null
     * @return the same options but the long-form settings
     * @throws IllegalArgumentException if {@code l} is null
     */
    public AsrOptions withLongForm(LongFormOptions l) {
        return new AsrOptions(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                beamSize,
                prompt,
                wordTimestamps,
                alignmentHeads,
                l);
    }

    /**
     * These options with another window limit.
     *
     * @param seconds the longest window, in [1, 60]
     * @return a new options record
     * @throws IllegalArgumentException if the value is out of range
     */
    public AsrOptions withMaxWindowSeconds(double seconds) {
        return new AsrOptions(
                vad,
                seconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                beamSize,
                prompt,
                wordTimestamps,
                alignmentHeads,
                longForm);
    }

    /**
     * These options with another merge gap.
     *
     * @param seconds segments apart by a pause shorter than this may share a window; 0 never joins two segments
     * @return the same options but the merge gap
     * @throws IllegalArgumentException when {@code seconds} is negative or NaN
     */
    public AsrOptions withMergeGapSeconds(double seconds) {
        return new AsrOptions(
                vad,
                maxWindowSeconds,
                seconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                beamSize,
                prompt,
                wordTimestamps,
                alignmentHeads,
                longForm);
    }

    /**
     * These options with other voice activity settings.
     *
     * @param v the VAD options, not null
     * @return a new options record
     * @throws IllegalArgumentException if {@code v} is null
     */
    public AsrOptions withVad(VadOptions v) {
        return new AsrOptions(
                v,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                beamSize,
                prompt,
                wordTimestamps,
                alignmentHeads,
                longForm);
    }

    /**
     * These options with another language.
     *
     * @param code a language code ("en", "de"), "auto" to detect per window, or null for the model's default
     * @return the same options but the language
     * @throws IllegalArgumentException if the code is not of that form
     */
    public AsrOptions withLanguage(String code) {
        return new AsrOptions(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                code,
                translate,
                beamSize,
                prompt,
                wordTimestamps,
                alignmentHeads,
                longForm);
    }

    /**
     * These options translating into English, or transcribing.
     *
     * @param into whether to translate into English
     * @return the same options but the task
     */
    public AsrOptions withTranslate(boolean into) {
        return new AsrOptions(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                into,
                beamSize,
                prompt,
                wordTimestamps,
                alignmentHeads,
                longForm);
    }

    /**
     * These options with another beam size.
     *
     * @param n 1 (greedy) to 8
     * @return the same options but the beam size
     * @throws IllegalArgumentException if {@code n} is out of range
     */
    public AsrOptions withBeamSize(int n) {
        return new AsrOptions(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                n,
                prompt,
                wordTimestamps,
                alignmentHeads,
                longForm);
    }

    /**
     * These options with an initial prompt.
     *
     * @param text the text the speech continues, or null for none
     * @return the same options but the prompt
     */
    public AsrOptions withPrompt(String text) {
        return new AsrOptions(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                beamSize,
                text,
                wordTimestamps,
                alignmentHeads,
                longForm);
    }

    /**
     * These options with word timestamps on or off.
     *
     * @param on whether to time each word
     * @param heads the alignment heads (a preset name or layer:head pairs), or null for the model's own
     * @return the same options but the word timestamps
     */
    public AsrOptions withWordTimestamps(boolean on, String heads) {
        return new AsrOptions(
                vad,
                maxWindowSeconds,
                mergeGapSeconds,
                tokensPerSecond,
                partialEverySeconds,
                language,
                translate,
                beamSize,
                prompt,
                on,
                heads,
                longForm);
    }
}
