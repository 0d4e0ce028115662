package dev.audioengine.model.store;

/** Hears what a pull is doing: one-line messages, and byte progress of downloads. */
public interface PullListener {
    /** What is being done ("fetching silero_vad_v5.onnx from ..."), for a person. */
    void message(String text);

    /** {@code done} of {@code total} bytes of {@code file} (total 0 when the server does not say). */
    default void progress(String file, long done, long total) {}

    PullListener SILENT = text -> {};
}
