package dev.audioengine.backend.vulkan;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.ProbeResult;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Vulkan backend's entry point. Construction loads nothing; {@link #probe()} loads the Vulkan
 * loader, makes a throwaway instance and lists every driver's devices. Until the compute shaders
 * land the backend reports itself unavailable, with the devices it found named in the reason.
 */
public final class VulkanBackendProvider implements BackendProvider {
    private final List<String> sonames;
    private final List<Path> folders;
    private ProbeResult probed;

    public VulkanBackendProvider() {
        this(VulkanLibrary.SONAMES, VulkanLibrary.FOLDERS);
    }

    /** For tests: search other names and folders. */
    VulkanBackendProvider(List<String> sonames, List<Path> folders) {
        this.sonames = List.copyOf(sonames);
        this.folders = List.copyOf(folders);
    }

    @Override public String registryName() { return "Vulkan"; }

    @Override public BackendType type() { return BackendType.VULKAN; }

    /** Probes once per provider; never throws. */
    @Override
    public synchronized ProbeResult probe() {
        if (probed == null) probed = probeOnce();
        return probed;
    }

    private ProbeResult probeOnce() {
        VulkanLibrary library = VulkanLibrary.find(sonames, folders);
        if (!library.found()) {
            return ProbeResult.unavailable(sonames.getFirst() + " not found (" + library.searchReport()
                    + "); install the Vulkan loader (libvulkan1) and a driver (e.g. mesa-vulkan-drivers or the GPU vendor's)");
        }
        try {
            VulkanFunctions vk = new VulkanFunctions(library.symbols(), library.location());
            String where;
            try (Arena arena = Arena.ofConfined()) {
                where = "Vulkan loader " + VkStructs.apiVersionName(vk.instanceVersion(arena)) + " at " + library.location();
            }
            List<VulkanDevices.VulkanDevice> devices;
            try {
                devices = VulkanDevices.list(vk);
            } catch (VulkanException e) {
                String hint = e.result() == VkResults.VK_ERROR_INCOMPATIBLE_DRIVER
                        ? "; no Vulkan driver (ICD) is installed or none accepts the instance" : "";
                return ProbeResult.unavailable(e.getMessage() + " (" + where + ")" + hint);
            }
            if (devices.isEmpty()) return ProbeResult.unavailable("0 devices (" + where + ")");
            return new ProbeResult(false, "Vulkan backend kernels are not in this build yet; " + where + " found "
                    + describe(devices), devices.stream().map(VulkanDevices.VulkanDevice::info).toList());
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("Vulkan probe of " + library.location() + " failed: " + e.getMessage());
        }
    }

    private static String describe(List<VulkanDevices.VulkanDevice> devices) {
        return devices.size() + (devices.size() == 1 ? " device: " : " devices: ") + devices.stream()
                .map(d -> d.info().name() + " [" + d.info().kind() + ", " + d.info().arch() + ", " + gib(d.info().memoryTotal())
                        + (d.budgetKnown() ? ", " + gib(d.info().memoryFree()) + " free" : ", free unknown without VK_EXT_memory_budget")
                        + "]")
                .collect(Collectors.joining("; "));
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    @Override public Set<Capability> verifiedCapabilities() { return Set.of(); }

    @Override
    public Backend open(int device, BackendConfig config) {
        throw new BackendUnavailableException(probe().reason());
    }
}
