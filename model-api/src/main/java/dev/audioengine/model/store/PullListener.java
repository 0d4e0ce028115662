package dev.audioengine.model.store;

/** Hears what a pull is doing: one-line messages, and byte progress of downloads. */
public interface PullListener {
    /**
     * What is being done ("fetching silero_vad_v5.onnx from ..."), for a person.
     *
     * @param text one line, no trailing newline
     */
    void message(String text);

    /**
     * {@code done} of {@code total} bytes of {@code file} (total 0 when the server does not say).
     * Called every 4 MiB or so of an HTTPS download and once at its end, on the pulling thread; the default ignores
     * it.
     *
     * @param file the model file's name
     * @param done bytes on disk so far, a resumed download's earlier bytes included
     * @param total the file's size in bytes, or 0 when unknown
     */
    default void progress(String file, long done, long total) {}

    /** Hears nothing: for programs that do not report pulls. */
    PullListener SILENT = text -> {};
}
