package dev.audioengine.model.task;

import java.util.List;

/**
 * Speech recognition on audio as it arrives, as Moonshine's live demo does it: voice activity detection runs on every
 * chunk; while someone speaks, the segment so far is re-transcribed at most every {@link AsrOptions#partialEverySeconds()}
 * and reported as a {@link TranscriptEvent.Partial}; when the speech ends (or reaches the window limit) the segment is
 * transcribed once more and reported as {@link TranscriptEvent.Final}. Not thread-safe: one stream per audio source.
 */
public interface AsrStream extends AutoCloseable {
    /** Feeds samples at the recognizer's rate; returns the events they caused (often none). */
    List<TranscriptEvent> accept(float[] samples, int from, int length);

    /** The end of the audio: a segment still open is finished and reported. */
    List<TranscriptEvent> finish();

    @Override
    void close();
}
