package dev.audioengine.api.spi;

/** A backend option key the chosen backend does not read: a usage error, listing the keys it does read. */
public final class UnknownOptionException extends IllegalArgumentException {
    /**
     * An unknown option key.
     *
     * @param message the key given, the backend, and the keys it does read
     */
    public UnknownOptionException(String message) {
        super(message);
    }
}
