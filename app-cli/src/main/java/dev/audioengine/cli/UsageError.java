package dev.audioengine.cli;

/**
 * A request the command line itself got wrong (a missing or contradictory option, a value out of range), found after
 * parsing: reported like a parse error, with exit status 2.
 */
public final class UsageError extends RuntimeException {
    public UsageError(String message) {
        super(message);
    }

    public UsageError(String message, Throwable cause) {
        super(message, cause);
    }

    /** Runs {@code check}, turning the IllegalArgumentException a library throws for a bad value into a usage error. */
    public static <T> T of(java.util.function.Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage(), e);
        }
    }
}
