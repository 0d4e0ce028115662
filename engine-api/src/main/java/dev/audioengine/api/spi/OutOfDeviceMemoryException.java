package dev.audioengine.api.spi;

/** An allocation that did not fit; says how much was asked and how much was free. */
public class OutOfDeviceMemoryException extends RuntimeException {
    private final long requested;
    private final long free;

    public OutOfDeviceMemoryException(String device, long requested, long free) {
        super("out of memory on " + device + ": asked for " + requested + " bytes, " + free
                + " free; use a smaller input, a lower-precision weight_type, or another device");
        this.requested = requested;
        this.free = free;
    }

    public long requested() {
        return requested;
    }

    public long free() {
        return free;
    }
}
