package dev.audioengine.model;

import dev.audioengine.api.exec.RunSummary;
import java.util.Optional;

/**
 * A loaded model serving one task; the typed task interfaces ({@code VoiceActivityDetector}, ...) extend it. It owns
 * its weights on the engine's device: close it before the engine.
 */
public interface TaskModel extends AutoCloseable {
    /**
     * The task this model serves; it implements that task's interface.
     *
     * @return the task, matching the interface it implements ({@code ASR} for a SpeechRecognizer)
     */
    Task task();

    /**
     * What was loaded: the variant name, or the file's name with what the family recognised in it.
     *
     * @return one line for logs and responses
     */
    String describe();

    /**
     * Where its most recently compiled graph runs (backend, GEMM path, any CPU fallback); empty before the first run.
     *
     * @return the summary of the last graph compiled, or empty
     */
    Optional<RunSummary> runSummary();

    /** Frees the model's weights and compiled graphs on the device; close it before the engine. */
    @Override
    void close();
}
