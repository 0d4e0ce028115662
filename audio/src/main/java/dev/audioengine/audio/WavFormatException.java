package dev.audioengine.audio;

/** A WAV file that cannot be decoded; the message names the file and what is wrong with it. */
public final class WavFormatException extends AudioFormatException {
    public WavFormatException(String message) {
        super(message);
    }
}
