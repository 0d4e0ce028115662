package dev.audioengine.audio;

import java.util.Locale;

/**
 * The check that audio holds only finite samples. {@link AudioStream} applies it to everything
 * it decodes; tasks that take samples from a caller (arrays, live streams) call it themselves.
 * Stateless and thread-safe.
 */
public final class NonFiniteSamples {
    private NonFiniteSamples() {}

    /** Checks a whole clip. */
    public static void check(float[] samples, int sampleRate, String source) throws NonFiniteSampleException {
        check(samples, 0, samples.length, 0, sampleRate, source);
    }

    /**
     * Checks {@code samples[off, off+len)}, which are samples {@code firstIndex, firstIndex+1, ...}
     * of {@code source} at {@code sampleRate}; the exception gives the first bad one's index and time.
     */
    public static void check(float[] samples, int off, int len, long firstIndex, int sampleRate, String source)
            throws NonFiniteSampleException {
        for (int i = off, end = off + len; i < end; i++) {
            float v = samples[i];
            if (!Float.isFinite(v)) {
                long index = firstIndex + (i - off);
                double seconds = index / (double) sampleRate;
                throw new NonFiniteSampleException(
                        String.format(
                                Locale.ROOT,
                                "%s: sample %d (at %.3f s) is %s; audio must hold finite samples (a float WAV with NaN or infinite values is corrupt)",
                                source,
                                index,
                                seconds,
                                Float.isNaN(v) ? "NaN" : v > 0 ? "+Infinity" : "-Infinity"),
                        index,
                        seconds);
            }
        }
    }
}
