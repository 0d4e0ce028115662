package dev.audioengine.api.spi;

/**
 * One device of a backend. {@code arch} is the vendor's architecture name (sm_90, gfx1100, the
 * CPU's SIMD width); memory figures are bytes, {@code memoryFree} as of the probe.
 */
public record DeviceInfo(int index, String name, String arch, DeviceKind kind, long memoryTotal, long memoryFree) {}
