package dev.audioengine.model.task;

import java.util.List;

/**
 * Voice activity detection on audio as it arrives: {@link #accept} takes any number of samples and reports the chunk
 * probabilities and segment boundaries they complete; {@link #finish} flushes the end of the audio. Not thread-safe:
 * one stream per audio source, fed from one thread at a time. Close it to free its device state.
 */
public interface VadStream extends AutoCloseable {
    /** What one call produced: a probability per completed chunk, and the boundaries those chunks settled. */
    record Result(float[] probabilities, List<SpeechEvent> events) {}

    int sampleRate();

    /** Samples per model chunk. */
    int chunkSize();

    /** Feeds samples at {@link #sampleRate()}; non-finite samples are rejected. */
    Result accept(float[] samples);

    /** The end of the audio: runs a buffered partial chunk and closes a segment still open. */
    Result finish();

    /** Forgets the audio so far, as if new. */
    void reset();

    @Override
    void close();
}
