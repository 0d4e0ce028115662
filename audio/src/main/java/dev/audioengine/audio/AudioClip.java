package dev.audioengine.audio;

/**
 * Mono audio in [-1, 1] at a sample rate, as decoded from a file. The samples array is shared,
 * not copied: safe to read from several threads, not to change while others read.
 *
 * @param channels how many channels the source had before mixing to mono
 */
public record AudioClip(float[] samples, int sampleRate, int channels) {
    public double seconds() {
        return samples.length / (double) sampleRate;
    }

    /** This clip at {@code rate}; the same clip when the rate already matches. */
    public AudioClip resampledTo(int rate) {
        return rate == sampleRate ? this : new AudioClip(Resampler.resample(samples, sampleRate, rate), rate, channels);
    }
}
