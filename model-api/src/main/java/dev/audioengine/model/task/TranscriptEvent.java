package dev.audioengine.model.task;

/** What a live transcription reports: text that may still change, and the settled text of a segment. */
public sealed interface TranscriptEvent {
    /**
     * The segment this event reports.
     *
     * @return the segment's times and text as decoded so far
     */
    TranscriptSegment segment();

    /**
     * The current speech segment so far; a later event replaces it.
     *
     * @param segment the open segment from its start to the audio heard so far, and its text now
     */
    record Partial(TranscriptSegment segment) implements TranscriptEvent {}

    /**
     * A finished segment; its text will not change.
     *
     * @param segment the whole segment and its final text
     */
    record Final(TranscriptSegment segment) implements TranscriptEvent {}
}
