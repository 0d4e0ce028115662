package dev.audioengine.model;

/** A task was asked for that no installed family serves: the request cannot be served here (exit 1 in the CLI). */
public final class NoFamilyException extends RuntimeException {
    public NoFamilyException(String message) {
        super(message);
    }
}
