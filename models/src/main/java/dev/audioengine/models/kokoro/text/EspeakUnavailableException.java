package dev.audioengine.models.kokoro.text;

/**
 * libespeak-ng cannot be used: the shared library is missing, lacks the calls this binding needs, or cannot find
 * its phoneme data. The message says what was tried and which Debian package to install.
 */
public final class EspeakUnavailableException extends RuntimeException {
    public EspeakUnavailableException(String message) {
        super(message);
    }
}
