package dev.audioengine.api.spi;

/** A backend option's value the backend cannot use (the message names the key, the values it takes and what was given): a usage error. */
public final class InvalidOptionValueException extends IllegalArgumentException {
    /**
     * An option value the backend cannot use.
     *
     * @param message the key, the values it takes and what was given
     */
    public InvalidOptionValueException(String message) {
        super(message);
    }
}
