package dev.audioengine.model.task;

/** What a live transcription reports: text that may still change, and the settled text of a segment. */
public sealed interface TranscriptEvent {
    TranscriptSegment segment();

    /** The current speech segment so far; a later event replaces it. */
    record Partial(TranscriptSegment segment) implements TranscriptEvent {}

    /** A finished segment; its text will not change. */
    record Final(TranscriptSegment segment) implements TranscriptEvent {}
}
