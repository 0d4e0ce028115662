package dev.audioengine.model.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * That a cached file's sha256 was checked, and what the file looked like then: its size, modification time and file
 * key (device and inode). A later check of the same unchanged file is then a stat, not a read: hashing Kokoro's 92 MB
 * on every run was most of a one-shot command's time before its first graph. Any change to the file (new bytes, a
 * replaced file, a touched one) misses the stamp, and the file is hashed again. The stamps live in
 * {@code <cache>/.verified/}, one small file per model file; deleting them only costs a hash.
 */
final class VerifiedStamp {
    private VerifiedStamp() {}

    static boolean matches(Path cache, Path file, String sha256) {
        try {
            Path stamp = stampOf(cache, file);
            return Files.isRegularFile(stamp)
                    && Files.readString(stamp, StandardCharsets.UTF_8).equals(describe(file, sha256));
        } catch (IOException e) {
            return false;
        }
    }

    /** Best effort: a cache that cannot take the stamp only means hashing again next time. */
    static void record(Path cache, Path file, String sha256) {
        try {
            Path stamp = stampOf(cache, file);
            Files.createDirectories(stamp.getParent());
            Path tmp =
                    Files.createTempFile(stamp.getParent(), stamp.getFileName().toString(), ".tmp");
            Files.writeString(tmp, describe(file, sha256), StandardCharsets.UTF_8);
            Files.move(tmp, stamp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | UnsupportedOperationException e) {
            // the next check hashes the file again
        }
    }

    private static Path stampOf(Path cache, Path file) {
        return cache.resolve(".verified").resolve(file.getFileName().toString());
    }

    private static String describe(Path file, String sha256) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        return sha256 + " " + a.size() + " " + a.lastModifiedTime().toInstant() + " " + a.fileKey() + "\n";
    }
}
