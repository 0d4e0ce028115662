package dev.audioengine.backend.vulkan;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.spi.BackendConfig;
import java.util.Map;

/** Opens the first Vulkan device (lavapipe in CI) with the validation layer on when it is installed. */
public final class VulkanTestDevice {
    private VulkanTestDevice() {}

    static VulkanBackend open() {
        return open(Map.of());
    }

    static VulkanBackend open(Map<String, String> extra) {
        VulkanBackendProvider provider = new VulkanBackendProvider();
        assumeTrue(
                provider.probe().available(),
                () -> "no Vulkan device here: " + provider.probe().reason()
                        + " (CI installs libvulkan1 and mesa-vulkan-drivers)");
        Map<String, String> options = new java.util.HashMap<>(Map.of("vulkan.validation", "auto"));
        options.putAll(extra);
        return (VulkanBackend) provider.open(0, new BackendConfig(0, options));
    }
}
