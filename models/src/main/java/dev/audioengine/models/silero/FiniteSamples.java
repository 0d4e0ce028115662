package dev.audioengine.models.silero;

import java.util.Locale;

/**
 * The input check every VAD entry point makes: one NaN makes every later probability NaN (the
 * state carries it), which would otherwise read as "no speech".
 */
final class FiniteSamples {
    private FiniteSamples() {}

    /**
     * Fails on the first NaN or infinite sample of {@code samples[from, from + length)}, naming it
     * by its index in the whole audio ({@code firstIndex} is the index of {@code samples[from]}).
     */
    static void require(float[] samples, int from, int length, long firstIndex, int sampleRate) {
        for (int i = from, end = from + length; i < end; i++) {
            if (!Float.isFinite(samples[i])) {
                long at = firstIndex + (i - from);
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "sample %d (%.3f s) is %s: the audio must hold finite samples; repair or trim the input",
                        at,
                        at / (double) sampleRate,
                        samples[i]));
            }
        }
    }
}
