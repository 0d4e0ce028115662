package dev.audioengine.api.exec;

/** The backend cannot compute some nodes and fallback was switched off. */
public class UnsupportedOpException extends RuntimeException {
    /**
     * Unsupported nodes with fallback off.
     *
     * @param message every unsupported node and the backend; fix by allowing the CPU fallback or choosing another
     *     backend
     */
    public UnsupportedOpException(String message) {
        super(message);
    }
}
