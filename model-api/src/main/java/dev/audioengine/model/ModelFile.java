package dev.audioengine.model;

import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One file of a named variant: the name it is cached under, the sha256 it must have, and where to fetch it.
 *
 * @param name    the cache file name ({@code silero_vad_v5.onnx}); several variants may share a file
 * @param sha256  lower-case hex; a fetched file with another hash is never cached
 * @param bytes   its size, for listings and progress (0 when unknown)
 * @param sources tried in order until one delivers the right bytes
 */
public record ModelFile(String name, String sha256, long bytes, List<ModelSource> sources) {
    /**
     * Checks the name and hash and copies the sources.
     *
     * @param name one plain file name: not blank, no path separator, not starting with a dot
     * @param sha256 exactly 64 lower-case hex digits
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
        if (sha256 == null || sha256.length() != 64 || !sha256.equals(sha256.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException(name + ": sha256 must be 64 lower-case hex digits, got " + sha256);
        }
        HexFormat.of().parseHex(sha256); // throws on a non-hex digit
        if (bytes < 0) throw new IllegalArgumentException(name + ": negative size " + bytes);
        sources = List.copyOf(sources);
        if (sources.isEmpty()) throw new IllegalArgumentException(name + " has no source to fetch it from");
    }
}
