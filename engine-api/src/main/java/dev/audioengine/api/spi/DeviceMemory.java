package dev.audioengine.api.spi;

/**
 * A device's free and total memory in bytes, as its driver reports them (all processes' use counted).
 *
 * @param freeBytes bytes free now, {@code 0 <= freeBytes <= totalBytes}
 * @param totalBytes the device's memory in bytes
 */
public record DeviceMemory(long freeBytes, long totalBytes) {
    /**
     * Checks the figures.
     *
     * @param freeBytes bytes free, {@code 0 <= freeBytes <= totalBytes}
     * @param totalBytes the device's memory in bytes, {@code >= 0}
     * @throws IllegalArgumentException if a figure is negative or more is free than there is
     */
    public DeviceMemory {
        if (freeBytes < 0 || totalBytes < 0 || freeBytes > totalBytes) {
            throw new IllegalArgumentException("device memory " + freeBytes + " free of " + totalBytes);
        }
    }

    /**
     * Memory in use by every process on the device, not only this one.
     *
     * @return {@code totalBytes - freeBytes}
     */
    public long usedBytes() {
        return totalBytes - freeBytes;
    }
}
