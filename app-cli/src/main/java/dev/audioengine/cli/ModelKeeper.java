package dev.audioengine.cli;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.TaskModel;
import java.io.IOException;

/**
 * Where a task gets its engine and model: a run of its own opens both and closes them at the end ({@link #NONE}); a
 * resident process keeps them for the next job that asks for the same (see dev.audioengine.cli.daemon).
 */
public interface ModelKeeper {

    /** Opens an engine and model per lease and closes both when the lease closes. */
    ModelKeeper NONE = (key, engine, model) -> {
        AudioEngine e = engine.open();
        try {
            TaskModel m = model.load(e);
            return new Lease(e, m, () -> {
                try (e) {
                    m.close();
                }
            });
        } catch (IOException | RuntimeException | Error failed) {
            e.close();
            throw failed;
        }
    };

    /**
     * An engine and model for one task run.
     *
     * @param key what decides them (task, model, backend, device, threads, ...), or null for what must not be kept
     *     (a model given as a path, whose files may change between jobs)
     */
    Lease lease(String key, EngineSource engine, ModelSource model) throws IOException;

    /** Builds the engine. */
    @FunctionalInterface
    interface EngineSource {
        AudioEngine open();
    }

    /** Loads the model on an engine. */
    @FunctionalInterface
    interface ModelSource {
        TaskModel load(AudioEngine engine) throws IOException;
    }

    /** The engine and model of one run; closing it closes them or hands them back to their keeper. */
    record Lease(AudioEngine engine, TaskModel model, Runnable release) implements AutoCloseable {
        @Override
        public void close() {
            release.run();
        }
    }
}
