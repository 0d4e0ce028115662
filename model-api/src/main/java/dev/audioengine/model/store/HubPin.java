package dev.audioengine.model.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the Hugging Face hub said about a cached file when it was pulled: the repository, the commit its revision stood
 * for, the file's path, size and hashes. The store keeps one per hub-pinned file in {@code <cache>/.hub/} and checks the
 * cached bytes against {@link #sha256()} from then on, without asking the hub again (offline runs work, and a later
 * commit on the hub does not change a cached model). It survives {@code models clean}, which removes only the
 * verification stamps; deleting it makes the next pull ask the hub again (the cached bytes are kept if they still
 * match).
 *
 * @param repo    the repository id ({@code openai/whisper-base})
 * @param commit  the commit the variant's revision stood for at the pull (40 hex digits on the real hub)
 * @param path    the file's path in the repository
 * @param sha256  the sha256 of the file's bytes, lower-case hex: the hub's LFS object id, or, for a small file the hub
 *     keeps in git itself (its API gives only a git blob id then), the hash of the bytes that matched that id
 * @param gitBlob the git blob id (sha1) the hub reported for a file kept in git, or null for an LFS file
 * @param bytes   the file's size as the hub reported it
 */
public record HubPin(String repo, String commit, String path, String sha256, String gitBlob, long bytes) {
    /**
     * Checks the required parts.
     *
     * @param repo the repository id; not null
     * @param commit the commit; not null
     * @param path the path in the repository; not null
     * @param sha256 64 lower-case hex digits
     * @param gitBlob 40 hex digits, or null
     * @param bytes the size, {@code >= 0}
     * @throws IllegalArgumentException if the hash or size is malformed
     * @throws NullPointerException if repo, commit or path is null
     */
    public HubPin {
        Objects.requireNonNull(repo, "repo");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(path, "path");
        if (sha256 == null || !sha256.matches("[0-9a-f]{64}"))
            throw new IllegalArgumentException(path + ": sha256 must be 64 lower-case hex digits, got " + sha256);
        if (gitBlob != null && !gitBlob.matches("[0-9a-f]{40}"))
            throw new IllegalArgumentException(path + ": a git blob id is 40 hex digits, got " + gitBlob);
        if (bytes < 0) throw new IllegalArgumentException(path + ": negative size " + bytes);
    }

    static Path fileOf(Path cache, String name) {
        return cache.resolve(".hub").resolve(name);
    }

    /** The pin recorded for cache file {@code name}, or null when there is none or it cannot be read. */
    static HubPin read(Path cache, String name) {
        Path f = fileOf(cache, name);
        if (!Files.isRegularFile(f)) return null;
        try {
            Map<String, String> m = new HashMap<>();
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                int sp = line.indexOf(' ');
                if (sp > 0) m.put(line.substring(0, sp), line.substring(sp + 1));
            }
            String blob = m.get("git-blob");
            return new HubPin(
                    m.get("repo"),
                    m.get("commit"),
                    m.get("path"),
                    m.get("sha256"),
                    blob == null || blob.equals("-") ? null : blob,
                    Long.parseLong(m.getOrDefault("bytes", "-1")));
        } catch (IOException | RuntimeException e) {
            return null; // an unreadable pin is no pin: the next pull asks the hub again
        }
    }

    /** Records the pin for cache file {@code name}, atomically. */
    void write(Path cache, String name) throws IOException {
        Path f = fileOf(cache, name);
        Files.createDirectories(f.getParent());
        Path tmp = Files.createTempFile(f.getParent(), name, ".tmp");
        Files.writeString(
                tmp,
                "repo " + repo + "\ncommit " + commit + "\npath " + path + "\nsha256 " + sha256 + "\ngit-blob "
                        + (gitBlob == null ? "-" : gitBlob) + "\nbytes " + bytes + "\n",
                StandardCharsets.UTF_8);
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
