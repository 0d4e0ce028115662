package dev.audioengine.server.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file part of a request, spooled into the {@link UploadFolder}; deleted on close.
 *
 * @param filename what the client called it (for messages only; never a path the server opens)
 */
public record Upload(Path path, String filename, long bytes) implements AutoCloseable {
    @Override
    public void close() throws IOException {
        Files.deleteIfExists(path);
    }

    /** {@code message} with the spooled file's path replaced by the client's name, so errors never show server paths. */
    String clientView(String message) {
        return String.valueOf(message).replace(path.toString(), filename);
    }
}
