package dev.audioengine.model;

/** A task was asked for that no installed family serves: the request cannot be served here (exit 1 in the CLI). */
public final class NoFamilyException extends RuntimeException {
    /**
     * No family for the task.
     *
     * @param message the task and the families that are installed; the fix is to add a family jar
     */
    public NoFamilyException(String message) {
        super(message);
    }
}
