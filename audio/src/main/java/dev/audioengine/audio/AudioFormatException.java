package dev.audioengine.audio;

import java.io.IOException;

/**
 * Audio that cannot be decoded, or cannot be decoded here: the message names the source and says
 * what is wrong with it (or which library is missing and which Debian package brings it).
 */
public class AudioFormatException extends IOException {
    public AudioFormatException(String message) {
        super(message);
    }

    public AudioFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
