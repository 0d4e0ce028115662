package dev.audioengine.audio;

import java.io.IOException;

/** A WAV file that cannot be decoded; the message names the file and what is wrong with it. */
public final class WavFormatException extends IOException {
    public WavFormatException(String message) { super(message); }
}
