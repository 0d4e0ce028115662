package dev.audioengine.api.exec;

/** The backend cannot compute some nodes and fallback was switched off. */
public class UnsupportedOpException extends RuntimeException {
    public UnsupportedOpException(String message) {
        super(message);
    }
}
