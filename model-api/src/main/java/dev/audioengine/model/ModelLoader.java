package dev.audioengine.model;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.store.PullListener;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns what a user names ({@code --task}, {@code --family}, {@code --model NAME|PATH}) into a family and files on disk,
 * pulling a named variant into the store first, then loads it. The CLI, the server and {@link Models} all go through
 * here, so a name means the same everywhere. Thread-safe.
 */
public final class ModelLoader {
    private final FamilyRegistry registry;
    private final ModelStore store;
    private final PullListener listener;

    /**
     * A loader over these families and this store.
     *
     * @param registry the families that names and paths are resolved against
     * @param store where named variants are cached and pulled to
     * @param listener hears pull messages and progress; {@link PullListener#SILENT} for none
     */
    public ModelLoader(FamilyRegistry registry, ModelStore store, PullListener listener) {
        this.registry = registry;
        this.store = store;
        this.listener = listener;
    }

    /**
     * The installed families, the user's cache.
     *
     * @param listener hears pull messages and progress
     * @return a loader over {@link FamilyRegistry#load()} and {@link ModelStore#userCache()}
     * @throws IllegalStateException if two installed families share a name, or there is no cache folder (neither
     *     XDG_CACHE_HOME nor HOME set)
     */
    public static ModelLoader standard(PullListener listener) {
        return new ModelLoader(FamilyRegistry.load(), ModelStore.userCache(), listener);
    }

    /**
     * The families this loader resolves against.
     *
     * @return the registry given at construction
     */
    public FamilyRegistry registry() {
        return registry;
    }

    /**
     * The store named variants are pulled into.
     *
     * @return the store given at construction
     */
    public ModelStore store() {
        return store;
    }

    /**
     * What a request resolved to: the family, where its files are, and a line saying what it is.
     *
     * @param family the family that will load it
     * @param location the task and the files on disk (pulled and verified for a named variant)
     * @param description one line for the user: the variant and its description, or what the family recognised in a
     *     path
     */
    public record Choice(ModelFamily family, ModelLocation location, String description) {}

    /**
     * Resolves a request. {@code familyName} and {@code model} may be null (the task's default family, that family's
     * default variant). A named variant is pulled when it is not cached yet; a path is validated by the family.
     *
     * @param task what the model must do
     * @param familyName a {@code --family} name, or null for the task's default family (or, with a path, every
     *     family serving the task)
     * @param model a variant name or alias, a path to a file or folder, or null for the family's default variant
     * @return the resolved choice; nothing is loaded yet
     * @throws IllegalArgumentException if the family is unknown or does not serve the task, or the named variant
     *     belongs to another family or task
     * @throws NoFamilyException if no installed family serves the task
     * @throws java.nio.file.NoSuchFileException if {@code model} is neither a variant name nor an existing path; the
     *     message lists the variant names
     * @throws ModelFormatException if no candidate family accepts the path; the message gives each family's reason
     * @throws IOException if pulling the variant fails (no network, no npm, a hash mismatch); the message says where
     *     to get the file by hand
     */
    public Choice choose(Task task, String familyName, String model) throws IOException {
        ModelFamily family = familyName == null ? null : registry.family(familyName);
        if (family != null && !family.tasks().contains(task)) {
            throw new IllegalArgumentException(
                    "model family " + family.name() + " serves " + tasks(family) + ", not --task " + task.cliName());
        }
        if (model == null) {
            ModelFamily f = family != null ? family : registry.defaultFamily(task);
            return named(task, f, f.defaultVariant(task));
        }
        var named = registry.variant(model);
        if (named.isPresent()) {
            ModelVariant v = named.get().variant();
            if (family != null && named.get().family() != family) {
                throw new IllegalArgumentException("model " + model + " belongs to family "
                        + named.get().family().name() + ", not " + family.name());
            }
            if (v.task() != task)
                throw new IllegalArgumentException(
                        "model " + v.name() + " serves --task " + v.task().cliName() + ", not " + task.cliName());
            return named(task, named.get().family(), v);
        }
        Path path = Path.of(model);
        if (!Files.exists(path)) {
            throw new NoSuchFileException(
                    model,
                    null,
                    "no such model: neither a model name (" + String.join(", ", registry.variantNames())
                            + ") nor an existing file or folder");
        }
        List<ModelFamily> candidates = family != null ? List.of(family) : registry.serving(task);
        if (candidates.isEmpty()) registry.defaultFamily(task); // throws: nothing serves the task
        List<String> refusals = new ArrayList<>();
        for (ModelFamily f : candidates) {
            try {
                String what = f.validate(path);
                return new Choice(f, ModelLocation.ofPath(task, path), what);
            } catch (ModelFormatException e) {
                refusals.add(f.name() + ": " + e.getMessage());
            }
        }
        throw new ModelFormatException(path + " is not a model for --task " + task.cliName()
                + " that an installed family can load (" + String.join("; ", refusals) + ")");
    }

    /**
     * Loads what {@link #choose} resolved onto {@code engine}.
     *
     * @param engine the engine whose backend runs the model; it must outlive the model
     * @param choice a result of {@link #choose}
     * @return the model, implementing the task's interface; the caller closes it before the engine
     * @throws IllegalStateException if the family loaded a model for another task (a family bug)
     * @throws ModelFormatException if the files are not what the family expects
     * @throws IOException if a file cannot be read
     */
    public TaskModel load(AudioEngine engine, Choice choice) throws IOException {
        TaskModel m = choice.family().load(engine, choice.location());
        if (m.task() != choice.location().task()) {
            m.close();
            throw new IllegalStateException(
                    choice.family().name() + " loaded a " + m.task().cliName() + " model for --task "
                            + choice.location().task().cliName());
        }
        return m;
    }

    /**
     * Loads {@code nameOrPath} as the task interface {@code type} (e.g. {@code VoiceActivityDetector.class}).
     *
     * @param <T> the task interface
     * @param engine the engine whose backend runs the model; it must outlive the model
     * @param nameOrPath a variant name or alias, a path a family serving the task accepts, or null for the task's
     *     default family's default variant
     * @param type {@code VoiceActivityDetector.class}, {@code SpeechRecognizer.class} or {@code
     *     SpeechSynthesizer.class}; the task follows from it
     * @return the model; the caller closes it before the engine
     * @throws IllegalArgumentException if {@code type} is not a task interface, or the name serves another task
     * @throws IllegalStateException if the family's model does not implement {@code type} (a family bug)
     * @throws ModelFormatException if no family accepts the path, or the files are not what the family expects
     * @throws IOException if the name is unknown and no such path exists, or pulling or reading fails
     */
    public <T extends TaskModel> T load(AudioEngine engine, String nameOrPath, Class<T> type) throws IOException {
        Task task = taskOf(type);
        TaskModel m = load(engine, choose(task, null, nameOrPath));
        if (!type.isInstance(m)) {
            m.close();
            throw new IllegalStateException(
                    nameOrPath + " loaded as " + m.getClass().getName() + ", which is not a " + type.getSimpleName());
        }
        return type.cast(m);
    }

    private Choice named(Task task, ModelFamily family, ModelVariant v) throws IOException {
        if (!store.has(v))
            listener.message(v.name() + " is not in the model cache yet; pulling it (audioengine models pull "
                    + v.name() + ")" + licenceNote(v));
        Map<String, Path> files = store.pull(v, listener);
        return new Choice(
                family,
                new ModelLocation(task, v, files.get(v.files().getFirst().name()), files),
                v.name() + " (" + v.description() + ")");
    }

    /**
     * What a person pulling {@code v} should know of its licence: nothing for most, a sentence for weights that are
     * not free to use for any purpose (an SPDX id with "-NC", non-commercial, such as openWakeWord's CC-BY-NC-SA-4.0).
     *
     * @param v the variant being pulled
     * @return "" or "; its weights are licensed ..., not for commercial use"
     */
    public static String licenceNote(ModelVariant v) {
        String l = v.licence() == null ? "" : v.licence();
        return l.toUpperCase(java.util.Locale.ROOT).contains("-NC")
                ? "; its weights are licensed " + l + ": not for commercial use"
                : "";
    }

    static Task taskOf(Class<? extends TaskModel> type) {
        if (VoiceActivityDetector.class.isAssignableFrom(type)) return Task.VAD;
        if (SpeechRecognizer.class.isAssignableFrom(type)) return Task.ASR;
        if (SpeechSynthesizer.class.isAssignableFrom(type)) return Task.TTS;
        if (KeywordSpotter.class.isAssignableFrom(type)) return Task.KWS;
        if (dev.audioengine.model.task.NoteTranscriber.class.isAssignableFrom(type)) return Task.NOTES;
        throw new IllegalArgumentException(type.getName() + " is not a task interface this engine knows");
    }

    private static String tasks(ModelFamily f) {
        return String.join(", ", f.tasks().stream().map(Task::cliName).sorted().toList());
    }
}
