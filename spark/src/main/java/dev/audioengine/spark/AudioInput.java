package dev.audioengine.spark;

import dev.audioengine.audio.AudioStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Opens a row's audio: its bytes when the row carries them ({@code binaryFile}'s {@code content}), else its path, a
 * local path or {@code file:} URI read as a file (decoded block by block, any format the audio module reads), or any
 * other URI Hadoop has a file system for ({@code hdfs:}, {@code s3a:}, ...), read as a stream.
 */
final class AudioInput {
    private AudioInput() {}

    /**
     * @param content the file's bytes, or null to read {@code path}
     * @param path where the row says the audio is; its name in messages
     * @return an open stream at the file's own rate; the caller closes it
     * @throws IOException if the file is missing, unreadable or not audio the audio module decodes
     */
    static AudioStream open(byte[] content, String path) throws IOException {
        String name = path == null ? "(row without a path)" : path;
        if (content != null) return AudioStream.open(new ByteArrayInputStream(content), name, w -> {});
        if (path == null || path.isBlank()) throw new IOException("the row has neither audio content nor a path");
        URI uri = new org.apache.hadoop.fs.Path(path).toUri();
        if (uri.getScheme() == null || uri.getScheme().equals("file"))
            return AudioStream.open(Path.of(uri.getPath()), w -> {});
        InputStream in = FileSystem.get(uri, new Configuration()).open(new org.apache.hadoop.fs.Path(uri));
        try {
            return AudioStream.open(in, name, w -> {});
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /**
     * The row's error text: what failed and why, the same on every attempt (no times, no addresses).
     *
     * @param path the row's path, or null
     * @param e what was thrown
     * @return a one-line message
     */
    static String error(String path, Throwable e) {
        if (e instanceof java.nio.file.NoSuchFileException || e instanceof java.io.FileNotFoundException)
            return "no such file: " + (e.getMessage() == null ? path : e.getMessage());
        String message = e.getMessage() == null ? "" : ": " + e.getMessage();
        return e.getClass().getSimpleName() + message;
    }
}
