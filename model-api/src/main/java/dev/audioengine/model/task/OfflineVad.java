package dev.audioengine.model.task;

import java.util.List;

/**
 * Offline voice activity detection over audio pushed in blocks of any size: the same probabilities and segments as
 * the whole-array call, in memory bounded by the block, so hours of audio never sit in memory at once. Not
 * thread-safe: one session per audio source. Close it to return its model state.
 */
public interface OfflineVad extends AutoCloseable {
    /**
     * What one call produced: the probabilities of the chunks it ran and the segments it settled.
     *
     * @param probabilities one speech probability in [0, 1] per chunk run during the call, in order; a block shorter
     *     than a chunk may run none
     * @param segments the speech segments this call settled, in order; a segment is reported once, when it can no
     *     longer change
     */
    record Result(float[] probabilities, List<SpeechSegment> segments) {}

    /**
     * The rate of the audio this session takes.
     *
     * @return samples per second, one of the detector's {@link VoiceActivityDetector#sampleRates()}
     */
    int sampleRate();

    /**
     * Takes {@code samples[from, from + length)} as the next block; non-finite samples are rejected.
     *
     * @param samples mono samples at {@link #sampleRate()}; read during the call only
     * @param from index of the first sample to take
     * @param length how many samples, any number
     * @return the chunks this block completed and the segments they settled
     * @throws IllegalArgumentException if a sample is NaN or infinite; the message gives its position in the audio
     * @throws IllegalStateException if the session is finished or closed
     */
    Result accept(float[] samples, int from, int length);

    /**
     * The end of the audio: runs the buffered chunks (the last zero-padded) and settles the last segments.
     *
     * @return the last probabilities and segments; the session takes no more audio
     * @throws IllegalStateException if the session is already finished or closed
     */
    Result finish();

    /** Returns the session's model state to the detector; the detector stays open. */
    @Override
    void close();
}
