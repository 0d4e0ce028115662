package dev.audioengine.weights.json;

/**
 * Text that {@link StrictJson} refuses: the problem in words and where it is, so each caller can phrase the
 * error its own way (a safetensors header by absolute byte offset, a tokenizer file by line and column).
 */
public final class JsonFormatException extends Exception {
    private final String problem;
    private final long byteOffset;
    private final int line;
    private final int column;

    JsonFormatException(String problem, long byteOffset, int line, int column, Throwable cause) {
        super(problem + " (byte " + byteOffset + ", line " + line + ", column " + column + ")", cause);
        this.problem = problem;
        this.byteOffset = byteOffset;
        this.line = line;
        this.column = column;
    }

    /** What is wrong, one line, without a location. */
    public String problem() {
        return problem;
    }

    /** Offset of the offending byte from the start of the parsed bytes (0-based). */
    public long byteOffset() {
        return byteOffset;
    }

    /** 1-based line of the offending byte. */
    public int line() {
        return line;
    }

    /** 1-based column of the offending byte within its line. */
    public int column() {
        return column;
    }
}
