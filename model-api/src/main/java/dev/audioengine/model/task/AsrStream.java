package dev.audioengine.model.task;

import java.util.List;

/**
 * Speech recognition on audio as it arrives, as Moonshine's live demo does it: voice activity detection runs on every
 * chunk; while someone speaks, the segment so far is re-transcribed at most every {@link AsrOptions#partialEverySeconds()}
 * and reported as a {@link TranscriptEvent.Partial}; when the speech ends (or reaches the window limit) the segment is
 * transcribed once more and reported as {@link TranscriptEvent.Final}. Not thread-safe: one stream per audio source.
 */
public interface AsrStream extends AutoCloseable {
    /**
     * Feeds samples at the recognizer's rate; returns the events they caused (often none).
     * Decoding happens inside this call, so it may take as long as a window's decode.
     *
     * @param samples mono samples at {@link SpeechRecognizer#sampleRate()}, finite; read during the call only
     * @param from index of the first sample to take
     * @param length how many samples to take, any number (no chunk alignment needed)
     * @return the partial and final events, in order; an empty list when nothing changed
     * @throws IllegalArgumentException if a sample is NaN or infinite
     * @throws IllegalStateException if the stream is finished or closed
     */
    List<TranscriptEvent> accept(float[] samples, int from, int length);

    /**
     * The end of the audio: a segment still open is finished and reported.
     *
     * @return the last events (a {@link TranscriptEvent.Final} for an open segment); the stream takes no more audio
     * @throws IllegalStateException if the stream is already finished or closed
     */
    List<TranscriptEvent> finish();

    /** Frees the session's model state; the recognizer stays open. */
    @Override
    void close();
}
