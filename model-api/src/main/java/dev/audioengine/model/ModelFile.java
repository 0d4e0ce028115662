package dev.audioengine.model;

import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One file of a named variant: the name it is cached under, the sha256 it must have, and where to fetch it. A file on
 * the Hugging Face hub may instead be pinned by the hub ({@link #onHub}): its hash is the one the hub's API reports
 * when it is first pulled, and the store records that pin next to the file.
 *
 * @param name    the cache file name ({@code silero_vad_v5.onnx}); several variants may share a file
 * @param sha256  lower-case hex; a fetched file with another hash is never cached. Null for a file pinned by the hub
 *     ({@link #pinnedByHub()})
 * @param bytes   its size, for listings and progress (0 when unknown)
 * @param sources tried in order until one delivers the right bytes
 */
public record ModelFile(String name, String sha256, long bytes, List<ModelSource> sources) {
    /**
     * Checks the name and hash and copies the sources.
     *
     * @param name one plain file name: not blank, no path separator, not starting with a dot
     * @param sha256 exactly 64 lower-case hex digits, or null when every source is a {@link ModelSource.HuggingFace}
     *     (the hash the hub reports at the first pull is then the pin)
     * @param bytes the size, {@code >= 0}; 0 when unknown (the size check on cached files is then skipped)
     * @param sources at least one; copied
     * @throws IllegalArgumentException if a rule above is broken; the message names the file
     * @throws NullPointerException if name or sources is null
     */
    public ModelFile {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IllegalArgumentException("a model file name is one plain file name, got '" + name + "'");
        }
        sources = List.copyOf(sources);
        if (sources.isEmpty()) throw new IllegalArgumentException(name + " has no source to fetch it from");
        if (sha256 == null) {
            if (!sources.stream().allMatch(s -> s instanceof ModelSource.HuggingFace))
                throw new IllegalArgumentException(name
                        + ": only a file whose every source is the Hugging Face hub may leave its sha256 to the hub");
        } else if (sha256.length() != 64 || !sha256.equals(sha256.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException(name + ": sha256 must be 64 lower-case hex digits, got " + sha256);
        }
        if (sha256 != null) HexFormat.of().parseHex(sha256); // throws on a non-hex digit
        if (bytes < 0) throw new IllegalArgumentException(name + ": negative size " + bytes);
    }

    /**
     * A file on the Hugging Face hub whose hash and size the hub's API reports when it is first pulled.
     *
     * @param name the cache file name, one plain file name
     * @param source the repository, revision and path it comes from
     * @return a file of unknown size (0) and no sha256 of its own
     * @throws IllegalArgumentException if the name is not one plain file name
     * @throws NullPointerException if either argument is null
     */
    public static ModelFile onHub(String name, ModelSource.HuggingFace source) {
        return new ModelFile(name, null, 0, List.of(Objects.requireNonNull(source, "source")));
    }

    /**
     * Whether the hub, not this record, gives the hash ({@link #onHub}).
     *
     * @return true when {@link #sha256()} is null
     */
    public boolean pinnedByHub() {
        return sha256 == null;
    }
}
