package dev.audioengine.api.spi;

/** A backend or device was asked for and cannot be used; the message says why and what to do. */
public class BackendUnavailableException extends RuntimeException {
    /**
     * An unavailable backend, explained.
     *
     * @param message what was asked for, why it cannot be used and what to do (install the driver, pick another
     *     device ...); shown to the user as it is
     */
    public BackendUnavailableException(String message) {
        super(message);
    }

    /**
     * An unavailable backend, explained, with the failure that revealed it.
     *
     * @param message what was asked for, why it cannot be used and what to do; shown to the user as it is
     * @param cause the underlying error (a failed driver call, a library that would not load)
     */
    public BackendUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
