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
    public ModelLocation {
        files = Map.copyOf(files);
    }

    /** A file or folder the user named. */
    public static ModelLocation ofPath(Task task, Path path) {
        return new ModelLocation(task, null, path, Map.of());
    }

    public Optional<ModelVariant> namedVariant() {
        return Optional.ofNullable(variant);
    }

    /** The cached path of the variant's file {@code name}. */
    public Path file(String name) {
        Path p = files.get(name);
        if (p == null)
            throw new IllegalArgumentException("no file '" + name + "' in " + (variant == null ? path : variant.name())
                    + "; files: " + files.keySet());
        return p;
    }
}
