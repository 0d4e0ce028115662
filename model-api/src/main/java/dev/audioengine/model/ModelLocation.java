package dev.audioengine.model;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a model to load lies on disk.
 *
 * @param task    the task to load it for
 * @param variant the named variant, or null for a path the user gave
 * @param path    the variant's first file, or the user's file or folder
 * @param files   every cached file of the variant by file name (empty for a user path)
 */
public record ModelLocation(Task task, ModelVariant variant, Path path, Map<String, Path> files) {
    /**
     * Copies the file map.
     *
     * @param task the task to load it for
     * @param variant the named variant, or null for a user path
     * @param path the variant's first file, or the user's file or folder
     * @param files every cached file of the variant by file name; copied
     * @throws NullPointerException if files is null or holds a null
     */
    public ModelLocation {
        files = Map.copyOf(files);
    }

    /**
     * A file or folder the user named.
     *
     * @param task the task to load it for
     * @param path the file or folder, as given (not checked here)
     * @return a location without a variant or cached files
     */
    public static ModelLocation ofPath(Task task, Path path) {
        return new ModelLocation(task, null, path, Map.of());
    }

    /**
     * The variant, for code that must tell a named model from a user's path.
     *
     * @return the variant, or empty for a user path
     */
    public Optional<ModelVariant> namedVariant() {
        return Optional.ofNullable(variant);
    }

    /**
     * The cached path of the variant's file {@code name}.
     *
     * @param name a {@link ModelFile#name()} of the variant
     * @return the path of the verified, cached file
     * @throws IllegalArgumentException if the variant has no such file (always, for a user path); the message lists
     *     the files it has
     */
    public Path file(String name) {
        Path p = files.get(name);
        if (p == null)
            throw new IllegalArgumentException("no file '" + name + "' in " + (variant == null ? path : variant.name())
                    + "; files: " + files.keySet());
        return p;
    }
}
