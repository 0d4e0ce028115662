package dev.audioengine.api.spi;

/** A device's free and total memory in bytes, as its driver reports them (all processes' use counted). */
public record DeviceMemory(long freeBytes, long totalBytes) {
    public DeviceMemory {
        if (freeBytes < 0 || totalBytes < 0 || freeBytes > totalBytes) {
            throw new IllegalArgumentException("device memory " + freeBytes + " free of " + totalBytes);
        }
    }

    public long usedBytes() {
        return totalBytes - freeBytes;
    }
}
