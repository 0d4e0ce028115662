package dev.audioengine.api.spi;

/** An allocation that did not fit; says how much was asked and how much was free. */
public class OutOfDeviceMemoryException extends RuntimeException {
    /** Bytes the failed allocation asked for. */
    private final long requested;
    /** Bytes free on the device when it failed, as the backend knew them. */
    private final long free;

    /**
     * An allocation that did not fit; the message suggests what to do (a smaller input, a lower-precision weight
     * type, another device).
     *
     * @param device the device's name for the message, e.g. "CUDA device 0 (NVIDIA H100)"
     * @param requested the bytes asked for
     * @param free the bytes free, as the driver reported them
     */
    public OutOfDeviceMemoryException(String device, long requested, long free) {
        super("out of memory on " + device + ": asked for " + requested + " bytes, " + free
                + " free; use a smaller input, a lower-precision weight_type, or another device");
        this.requested = requested;
        this.free = free;
    }

    /**
     * The size of the allocation that failed.
     *
     * @return bytes
     */
    public long requested() {
        return requested;
    }

    /**
     * What the device had free; another process may have used memory between the check and the failure.
     *
     * @return bytes
     */
    public long free() {
        return free;
    }
}
