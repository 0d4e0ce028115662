package dev.audioengine.model.task;

/**
 * How to speak.
 *
 * @param voice a voice name of {@link SpeechSynthesizer#voices()}; null for the model's default
 * @param speed 1 is the voice's own pace; within [0.25, 4]
 */
public record SynthesisOptions(String voice, double speed) {
    /** The model's default voice at its own pace. */
    public static final SynthesisOptions DEFAULTS = new SynthesisOptions(null, 1.0);

    /**
     * Checks the speed; the voice is checked by the synthesizer, which knows its voices.
     *
     * @param voice a voice name, or null for the default
     * @param speed in [0.25, 4]
     * @throws IllegalArgumentException if the speed is out of range or NaN
     */
    public SynthesisOptions {
        if (!(speed >= 0.25 && speed <= 4))
            throw new IllegalArgumentException("speed must be in [0.25, 4], got " + speed);
    }

    /**
     * These options with another voice.
     *
     * @param v a voice name of the synthesizer, or null for its default
     * @return a new options record
     */
    public SynthesisOptions withVoice(String v) {
        return new SynthesisOptions(v, speed);
    }

    /**
     * These options at another pace.
     *
     * @param s in [0.25, 4]; 2 speaks twice as fast
     * @return a new options record
     * @throws IllegalArgumentException if the speed is out of range
     */
    public SynthesisOptions withSpeed(double s) {
        return new SynthesisOptions(voice, s);
    }
}
