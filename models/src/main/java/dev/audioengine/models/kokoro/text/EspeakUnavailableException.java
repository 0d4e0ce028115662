package dev.audioengine.models.kokoro.text;

import dev.audioengine.model.MissingDependencyException;

/**
 * libespeak-ng cannot be used: the shared library is missing, lacks the calls this binding needs, or cannot find
 * its phoneme data. The message says what was tried and which Debian packages to install (libespeak-ng1,
 * espeak-ng-data).
 */
public final class EspeakUnavailableException extends MissingDependencyException {
    public EspeakUnavailableException(String message) {
        super(message);
    }
}
