package dev.audioengine.audio;

import java.io.IOException;

/** A decoder of one container/codec: interleaved float frames at the source's own rate. Not thread-safe. */
interface FrameDecoder extends AutoCloseable {
    int sampleRate();

    int channels();

    /** Frames the source declares, or -1 when unknown (a pipe, a streamed WAV). */
    long frames();

    /** What was found, for messages and summaries: "WAV 16-bit PCM", "FLAC 24-bit (libsndfile)". */
    String description();

    /** Reads up to {@code maxFrames} interleaved frames into {@code dst}; returns how many, -1 at the end. */
    int read(float[] dst, int maxFrames) throws IOException;

    @Override
    void close() throws IOException;
}
