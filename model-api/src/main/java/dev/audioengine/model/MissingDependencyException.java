package dev.audioengine.model;

/**
 * Software a model needs from the machine is not installed or cannot be used: a system library or its data (Kokoro's
 * espeak-ng, say). The message names what was tried and what to install. The request cannot be served until it is
 * (exit 1 in the CLI); it is no bug in the engine, and retrying does not help.
 */
public class MissingDependencyException extends RuntimeException {
    /**
     * A missing system dependency.
     *
     * @param message what was looked for and where, and what to install
     */
    public MissingDependencyException(String message) {
        super(message);
    }
}
