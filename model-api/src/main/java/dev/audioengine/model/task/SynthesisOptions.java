package dev.audioengine.model.task;

/**
 * How to speak.
 *
 * @param voice a voice name of {@link SpeechSynthesizer#voices()}; null for the model's default
 * @param speed 1 is the voice's own pace; within [0.25, 4]
 */
public record SynthesisOptions(String voice, double speed) {
    public static final SynthesisOptions DEFAULTS = new SynthesisOptions(null, 1.0);

    public SynthesisOptions {
        if (!(speed >= 0.25 && speed <= 4))
            throw new IllegalArgumentException("speed must be in [0.25, 4], got " + speed);
    }

    public SynthesisOptions withVoice(String v) {
        return new SynthesisOptions(v, speed);
    }

    public SynthesisOptions withSpeed(double s) {
        return new SynthesisOptions(voice, s);
    }
}
