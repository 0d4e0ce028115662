package dev.audioengine.model.task;

import java.util.List;

/**
 * Offline voice activity detection over audio pushed in blocks of any size: the same probabilities and segments as
 * the whole-array call, in memory bounded by the block, so hours of audio never sit in memory at once. Not
 * thread-safe: one session per audio source. Close it to return its model state.
 */
public interface OfflineVad extends AutoCloseable {
    /** What one call produced: the probabilities of the chunks it ran and the segments it settled. */
    record Result(float[] probabilities, List<SpeechSegment> segments) {}

    int sampleRate();

    /** Takes {@code samples[from, from + length)} as the next block; non-finite samples are rejected. */
    Result accept(float[] samples, int from, int length);

    /** The end of the audio: runs the buffered chunks (the last zero-padded) and settles the last segments. */
    Result finish();

    @Override
    void close();
}
