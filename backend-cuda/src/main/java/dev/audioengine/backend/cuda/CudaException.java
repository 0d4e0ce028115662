package dev.audioengine.backend.cuda;

/** A CUDA driver call returned an error; the message names the call and the driver's error name. */
final class CudaException extends RuntimeException {
    private final String errorName;

    CudaException(String call, String errorName) {
        super(call + " failed: " + errorName);
        this.errorName = errorName;
    }

    /** The driver's name for the error, e.g. CUDA_ERROR_NO_DEVICE. */
    String errorName() { return errorName; }
}
