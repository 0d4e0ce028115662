package dev.audioengine.server.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The server's own folder for uploads in flight, under java.io.tmpdir, readable by this account alone. Every file
 * the server opens as audio is one it created here; a request's names and paths are never opened. Files are deleted
 * when their request ends; the folder and anything left in it when the server stops.
 */
public final class UploadFolder implements AutoCloseable {
    private final Path dir;

    public UploadFolder() throws IOException {
        dir = Files.createTempDirectory("audioengine-server-", ownerOnly("rwx------"));
    }

    public Path path() {
        return dir;
    }

    /** A new empty file for one upload. */
    Path newFile() throws IOException {
        return Files.createTempFile(dir, "upload-", ".bin", ownerOnly("rw-------"));
    }

    @Override
    public void close() throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static FileAttribute<?>[] ownerOnly(String permissions) {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) return new FileAttribute<?>[0];
        return new FileAttribute<?>[] {
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))
        };
    }
}
