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
    /**
     * The {@code --family} name, lower case ({@code silero_vad}).
     *
     * @return a name unique among installed families (the registry refuses two of one name)
     */
    String name();

    /**
     * One line for {@code models list}.
     *
     * @return a short human description
     */
    String description();

    /**
     * The tasks its variants serve.
     *
     * @return a non-empty, unmodifiable set
     */
    Set<Task> tasks();

    /**
     * Its named, pinned variants; {@code --model NAME} picks one.
     *
     * @return the variants; the first of each task is its default unless {@link #defaultVariant} says otherwise.
     *     Names should be unique across installed families (the first family by name wins a clash)
     */
    List<ModelVariant> variants();

    /**
     * The variant {@code --task} uses when no {@code --model} is given.
     *
     * @param task one of {@link #tasks()}
     * @return the first variant serving it, unless a family overrides this
     * @throws IllegalArgumentException if no variant serves the task
     */
    default ModelVariant defaultVariant(Task task) {
        return variants().stream()
                .filter(v -> v.task() == task)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name() + " has no variant for task " + task.cliName()));
    }

    /**
     * Whether this family is the one {@code --task T} uses when {@code --family} is absent.
     *
     * @param task a task, possibly one this family does not serve
     * @return false by default; where several installed families serve a task and none says true, the first by name
     *     is used
     */
    default boolean isDefaultFor(Task task) {
        return false;
    }

    /**
     * Capabilities its graphs can branch on; the engine intersects them with the backend's verified set.
     *
     * @return the capabilities; empty when its graphs have only one form
     */
    Set<Capability> uses();

    /**
     * Checks a file or folder a user named with {@code --model PATH} (format, tensor names and shapes, not a pinned
     * hash) and says what it is ("Silero VAD v5 (the pinned file)", "a Silero VAD v6 graph, unpinned"); throws with
     * what is missing or wrong when the family cannot use it.
     *
     * @param path a file or folder the user named
     * @return one line describing what was found
     * @throws ModelFormatException if it is not a model this family can load; the message says what is wrong, and
     *     the loader tries the next family
     * @throws IOException if the file cannot be read
     */
    String validate(Path path) throws IOException;

    /**
     * Loads a model for {@code location.task()} onto {@code engine}: a named variant whose files are cached and
     * verified, or a path that {@link #validate} accepted. The result implements that task's interface.
     *
     * @param engine the engine whose backend runs the model; it must outlive the model
     * @param location the task and the files, as {@link ModelLoader#choose} resolved them
     * @return the model, owned by the caller, who closes it before the engine
     * @throws ModelFormatException if the files are not what the family expects
     * @throws IOException if a file cannot be read
     */
    TaskModel load(AudioEngine engine, ModelLocation location) throws IOException;
}
