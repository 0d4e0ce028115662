package dev.audioengine.backend.hip;

/** A HIP runtime call returned an error; the message names the call and the runtime's error name (hipGetErrorName). */
final class HipException extends RuntimeException {
    private final String call;
    private final String errorName;

    HipException(String call, String errorName) {
        super(call + " failed: " + errorName);
        this.call = call;
        this.errorName = errorName;
    }

    /** The failing call, e.g. hipGetDeviceCount. */
    String call() { return call; }

    /** The runtime's name for the error, e.g. hipErrorNoDevice. */
    String errorName() { return errorName; }
}
