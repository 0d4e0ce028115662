package dev.audioengine.api.spi;

/** A backend or device was asked for and cannot be used; the message says why and what to do. */
public class BackendUnavailableException extends RuntimeException {
    public BackendUnavailableException(String message) {
        super(message);
    }

    public BackendUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
