package dev.audioengine.model;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A family of models written against the graph API (silero_vad, later moonshine, kokoro): the service a family jar
 * provides ({@code provides dev.audioengine.model.ModelFamily with ...} in its module-info, and
 * META-INF/services for the class path). A family jar on the module path appears in {@code models list} and in
 * {@code --task}/{@code --family}; adding one touches no CLI file.
 * <p>Constructing a family is cheap and reads no file. Implementations are immutable and thread-safe.
 */
public interface ModelFamily {
    /** The {@code --family} name, lower case ({@code silero_vad}). */
    String name();

    /** One line for {@code models list}. */
    String description();

    /** The tasks its variants serve. */
    Set<Task> tasks();

    /** Its named, pinned variants; {@code --model NAME} picks one. */
    List<ModelVariant> variants();

    /** The variant {@code --task} uses when no {@code --model} is given. */
    default ModelVariant defaultVariant(Task task) {
        return variants().stream()
                .filter(v -> v.task() == task)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name() + " has no variant for task " + task.cliName()));
    }

    /** Whether this family is the one {@code --task T} uses when {@code --family} is absent. */
    default boolean isDefaultFor(Task task) {
        return false;
    }

    /** Capabilities its graphs can branch on; the engine intersects them with the backend's verified set. */
    Set<Capability> uses();

    /**
     * Checks a file or folder a user named with {@code --model PATH} (format, tensor names and shapes, not a pinned
     * hash) and says what it is ("Silero VAD v5 (the pinned file)", "a Silero VAD v6 graph, unpinned"); throws with
     * what is missing or wrong when the family cannot use it.
     */
    String validate(Path path) throws IOException;

    /**
     * Loads a model for {@code location.task()} onto {@code engine}: a named variant whose files are cached and
     * verified, or a path that {@link #validate} accepted. The result implements that task's interface.
     */
    TaskModel load(AudioEngine engine, ModelLocation location) throws IOException;
}
