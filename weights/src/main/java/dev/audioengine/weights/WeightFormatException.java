package dev.audioengine.weights;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A weight file that cannot be read as the format it claims to be: truncated, corrupt, hostile,
 * or using a feature the engine does not support. Names the file, the byte offset where the
 * problem was found, and the problem.
 */
public final class WeightFormatException extends IOException {
    private final Path file;
    private final long offset;
    private final String problem;

    public WeightFormatException(Path file, long offset, String problem) {
        super(file + ": at byte " + offset + ": " + problem);
        this.file = file;
        this.offset = offset;
        this.problem = problem;
    }

    /** The file that was being read. */
    public Path file() {
        return file;
    }

    /** Byte offset in the file where the problem was found. */
    public long offset() {
        return offset;
    }

    /** The problem, without the file and offset. */
    public String problem() {
        return problem;
    }
}
