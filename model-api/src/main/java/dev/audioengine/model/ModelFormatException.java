package dev.audioengine.model;

import java.io.IOException;

/** A file or folder given as a model that the family cannot use: wrong format, missing tensors, wrong shapes. */
public class ModelFormatException extends IOException {
    public ModelFormatException(String message) {
        super(message);
    }

    public ModelFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
