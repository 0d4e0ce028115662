package dev.audioengine.models.asr;

import dev.audioengine.model.task.TranscriptSegment;

/**
 * Decodes one window of speech to its text: what a recognizer (Moonshine) supplies to the windowing in this package,
 * which decides what to decode and when.
 */
@FunctionalInterface
public interface WindowDecoder {
    /** The rate of the audio every window is cut from. */
    int SAMPLE_RATE = 16_000;

    /**
     * Decodes {@code samples[from, from + length)}, mono at {@link #SAMPLE_RATE}, which start at {@code startSample} of
     * the audio; the segment returned spans exactly {@code [startSample, startSample + length)}. The array is the
     * caller's scratch space: read it during the call, do not keep it.
     */
    TranscriptSegment decode(float[] samples, int from, int length, long startSample);
}
