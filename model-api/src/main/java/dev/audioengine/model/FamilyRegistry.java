package dev.audioengine.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The model families found on the module path (and META-INF/services on the class path), by name. Immutable and
 * thread-safe once built.
 */
public final class FamilyRegistry {
    private final Map<String, ModelFamily> byName;

    private FamilyRegistry(List<ModelFamily> families) {
        Map<String, ModelFamily> m = new LinkedHashMap<>();
        for (ModelFamily f : families.stream()
                .sorted(Comparator.comparing(ModelFamily::name))
                .toList()) {
            ModelFamily before = m.putIfAbsent(f.name().toLowerCase(Locale.ROOT), f);
            if (before != null && before.getClass() != f.getClass()) {
                throw new IllegalStateException("two model families are named '" + f.name() + "': "
                        + before.getClass().getName() + " (" + origin(before) + ") and "
                        + f.getClass().getName() + " (" + origin(f) + "); remove one of the jars");
            }
        }
        this.byName = m;
    }

    /**
     * Families visible to this module: the boot layer's module path, then the class path.
     *
     * @return the registry; each family is constructed (cheap, no files read)
     * @throws IllegalStateException if two different families share a name; the message names both jars
     */
    public static FamilyRegistry load() {
        return of(ServiceLoader.load(ModelFamily.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList());
    }

    /**
     * Families in {@code layer} and its parents (a layer an application built over extra jars).
     *
     * @param layer the layer to search, with its parents
     * @return the registry; each family is constructed (cheap, no files read)
     * @throws IllegalStateException if two different families share a name
     */
    public static FamilyRegistry load(ModuleLayer layer) {
        return of(ServiceLoader.load(layer, ModelFamily.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList());
    }

    /**
     * A registry of exactly these families, without ServiceLoader (tests, applications that construct families).
     *
     * @param families the families; two instances of one class under one name count once
     * @return the registry, one family per name, sorted by name
     * @throws IllegalStateException if two different families share a name (ignoring case)
     */
    public static FamilyRegistry of(List<? extends ModelFamily> families) {
        return new FamilyRegistry(new ArrayList<>(families));
    }

    /**
     * By name.
     *
     * @return a new list of every family, sorted by name
     */
    public List<ModelFamily> families() {
        return List.copyOf(byName.values());
    }

    /**
     * The family named {@code name}; an unknown name fails listing the installed ones.
     *
     * @param name a family name, case and surrounding space ignored
     * @return the installed family of that name
     * @throws IllegalArgumentException if no installed family has that name
     */
    public ModelFamily family(String name) {
        ModelFamily f = byName.get(name.trim().toLowerCase(Locale.ROOT));
        if (f == null)
            throw new IllegalArgumentException("unknown model family '" + name + "'; installed: " + names(families()));
        return f;
    }

    /**
     * The families with a variant for a task.
     *
     * @param task the task to look up
     * @return those families, sorted by name; empty when none is installed
     */
    public List<ModelFamily> serving(Task task) {
        return byName.values().stream().filter(f -> f.tasks().contains(task)).toList();
    }

    /**
     * The family {@code --task} uses without {@code --family}: the one that says it is the default, else the only one.
     *
     * @param task the task {@code --task} names
     * @return the family that declares itself the default for it, else the first by name that serves it
     * @throws NoFamilyException if no installed family serves the task; the message lists what is installed
     */
    public ModelFamily defaultFamily(Task task) {
        List<ModelFamily> serving = serving(task);
        if (serving.isEmpty()) {
            throw new NoFamilyException("no installed model family serves --task " + task.cliName() + " ("
                    + task.description() + "); installed: " + describeInstalled());
        }
        return serving.stream().filter(f -> f.isDefaultFor(task)).findFirst().orElse(serving.getFirst());
    }

    /**
     * The family and variant a name such as {@code silero_vad_v5} stands for.
     *
     * @param name a variant name or alias, case-insensitive
     * @return the first match, or empty when no variant answers to it (it may be a path)
     */
    public Optional<Named> variant(String name) {
        for (ModelFamily f : byName.values()) {
            for (ModelVariant v : f.variants()) if (v.answersTo(name)) return Optional.of(new Named(f, v));
        }
        return Optional.empty();
    }

    /**
     * Every variant name, for messages.
     *
     * @return canonical names (not aliases), family by family
     */
    public List<String> variantNames() {
        return byName.values().stream()
                .flatMap(f -> f.variants().stream())
                .map(ModelVariant::name)
                .toList();
    }

    /**
     * "silero_vad (vad)", for messages.
     *
     * @return every family with its tasks, comma-separated, or "none"
     */
    public String describeInstalled() {
        if (byName.isEmpty()) return "none";
        return byName.values().stream()
                .map(f -> f.name() + " ("
                        + f.tasks().stream().map(Task::cliName).sorted().collect(Collectors.joining(", ")) + ")")
                .collect(Collectors.joining(", "));
    }

    /**
     * A variant with its family.
     *
     * @param family the family that declares the variant and loads it
     * @param variant the variant, one of {@code family.variants()}
     */
    public record Named(ModelFamily family, ModelVariant variant) {}

    private static String names(List<ModelFamily> fs) {
        return fs.isEmpty() ? "none" : fs.stream().map(ModelFamily::name).collect(Collectors.joining(", "));
    }

    private static String origin(ModelFamily f) {
        Module m = f.getClass().getModule();
        return m.isNamed()
                ? "module " + m.getName()
                : String.valueOf(f.getClass().getProtectionDomain().getCodeSource());
    }
}
