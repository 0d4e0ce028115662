package dev.audioengine.model;

import java.io.IOException;

/** A file or folder given as a model that the family cannot use: wrong format, missing tensors, wrong shapes. */
public class ModelFormatException extends IOException {
    /**
     * A model the family cannot use.
     *
     * @param message which file and what is wrong with it (a missing tensor, a shape, the format), for the user
     */
    public ModelFormatException(String message) {
        super(message);
    }

    /**
     * A model the family cannot use, with the parse error that showed it.
     *
     * @param message which file and what is wrong with it
     * @param cause the reader's exception
     */
    public ModelFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
