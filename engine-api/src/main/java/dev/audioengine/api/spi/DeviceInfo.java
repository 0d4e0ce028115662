package dev.audioengine.api.spi;

/**
 * One device of a backend. {@code arch} is the vendor's architecture name (sm_90, gfx1100, the
 * CPU's SIMD width); memory figures are bytes, {@code memoryFree} as of the probe.
 *
 * @param index the device's 0-based position among its backend's devices, as {@link BackendProvider#open} takes it
 * @param name the vendor's device name (e.g. "NVIDIA H100 80GB HBM3"), or the CPU's model
 * @param arch the architecture as the vendor spells it: sm_90, gfx1100, "Vulkan 1.3", or for the CPU the OS's
 *     architecture and SIMD width
 * @param kind discrete, integrated or virtual GPU, or CPU; {@code best} prefers them in that order
 * @param memoryTotal the device's memory in bytes (for the CPU, the machine's)
 * @param memoryFree bytes free when the backend was probed, not now; where the driver cannot tell (Vulkan without
 *     VK_EXT_memory_budget) it equals {@code memoryTotal}
 */
public record DeviceInfo(int index, String name, String arch, DeviceKind kind, long memoryTotal, long memoryFree) {}
