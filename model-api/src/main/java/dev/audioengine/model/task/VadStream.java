package dev.audioengine.model.task;

import java.util.List;

/**
 * Voice activity detection on audio as it arrives: {@link #accept} takes any number of samples and reports the chunk
 * probabilities and segment boundaries they complete; {@link #finish} flushes the end of the audio. Not thread-safe:
 * one stream per audio source, fed from one thread at a time. Close it to free its device state.
 */
public interface VadStream extends AutoCloseable {
    /**
     * What one call produced: a probability per completed chunk, and the boundaries those chunks settled.
     *
     * @param probabilities one speech probability in [0, 1] per chunk completed during the call; empty when the
     *     samples did not complete a chunk
     * @param events the segment boundaries settled, in order
     */
    record Result(float[] probabilities, List<SpeechEvent> events) {}

    /**
     * The rate this stream takes.
     *
     * @return samples per second, one of the detector's native rates
     */
    int sampleRate();

    /**
     * Samples per model chunk.
     *
     * @return the chunk size at {@link #sampleRate()} (Silero: 512 at 16 kHz, 256 at 8 kHz); one probability per chunk
     */
    int chunkSize();

    /**
     * Feeds samples at {@link #sampleRate()}; non-finite samples are rejected.
     *
     * @param samples any number of mono samples; the rest of an incomplete chunk is kept for the next call
     * @return the chunks completed and the boundaries they settled
     * @throws IllegalArgumentException if a sample is NaN or infinite
     */
    Result accept(float[] samples);

    /**
     * The end of the audio: runs a buffered partial chunk and closes a segment still open.
     * The stream is then {@link #reset()}, ready for new audio.
     *
     * @return the last probability (when a partial chunk was buffered) and the last boundaries
     */
    Result finish();

    /** Forgets the audio so far, as if new. */
    void reset();

    /** Frees the stream's device state; the detector stays open. */
    @Override
    void close();
}
