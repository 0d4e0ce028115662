package dev.audioengine.backend.vulkan;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.InvalidOptionValueException;
import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.device.VulkanDevices;
import dev.audioengine.backend.vulkan.ffm.VkResults;
import dev.audioengine.backend.vulkan.ffm.VkStructs;
import dev.audioengine.backend.vulkan.ffm.VulkanException;
import dev.audioengine.backend.vulkan.ffm.VulkanFunctions;
import dev.audioengine.backend.vulkan.ffm.VulkanLibrary;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Vulkan backend's entry point. Construction loads nothing; {@link #probe()} loads the Vulkan
 * loader, makes a throwaway instance and lists every driver's devices.
 *
 * <p>Options ({@link BackendConfig#option}): {@code vulkan.validation=off|auto|on} (default off;
 * auto enables the Khronos validation layer when installed, on requires it) and
 * {@code vulkan.staging=auto|always} (always keeps tensors in unmapped memory and copies through a
 * staging buffer even where device memory is host-visible, as on discrete GPUs) and
 * {@code vulkan.subgroups=auto|off} (off uses the shared-memory reductions even where the device
 * reports subgroup arithmetic).
 */
public final class VulkanBackendProvider implements BackendProvider {
    private final List<String> sonames;
    private final List<Path> folders;
    private ProbeResult probed;
    private NativeLibrary library;

    /**
     * Capabilities whose evidence cases (CapabilityEvidence) all pass: on Mesa lavapipe in CI,
     * asserted by VulkanConformanceTest; `audioengine check --backend vulkan` shows the same per device.
     */
    static final Set<Capability> VERIFIED = Set.copyOf(EnumSet.of(
            Capability.DEPTHWISE_CONV1D_FAST,
            Capability.CONV_TRANSPOSE1D_COL2IM,
            Capability.FUSED_ATTENTION,
            Capability.BF16_WEIGHTS,
            Capability.FAST_PROJECTION,
            Capability.DEVICE_ISTFT,
            Capability.Q5_0_WEIGHTS,
            Capability.Q5_1_WEIGHTS,
            Capability.Q4_1_WEIGHTS,
            Capability.Q6_K_WEIGHTS,
            Capability.Q4_K_WEIGHTS,
            Capability.Q5_K_WEIGHTS,
            Capability.Q3_K_WEIGHTS,
            Capability.Q2_K_WEIGHTS));

    public VulkanBackendProvider() {
        this(VulkanLibrary.SONAMES, VulkanLibrary.FOLDERS);
    }

    /** For tests: search other names and folders. */
    VulkanBackendProvider(List<String> sonames, List<Path> folders) {
        this.sonames = List.copyOf(sonames);
        this.folders = List.copyOf(folders);
    }

    @Override
    public String registryName() {
        return "Vulkan";
    }

    @Override
    public BackendType type() {
        return BackendType.VULKAN;
    }

    /** Probes once per provider; never throws. */
    @Override
    public synchronized ProbeResult probe() {
        if (probed == null) probed = probeOnce();
        return probed;
    }

    private ProbeResult probeOnce() {
        NativeLibrary library = VulkanLibrary.find(sonames, folders);
        this.library = library;
        if (!library.found()) {
            return ProbeResult.unavailable(
                    sonames.getFirst() + " not found (" + library.searchReport()
                            + "); install the Vulkan loader (libvulkan1) and a driver (e.g. mesa-vulkan-drivers or the GPU vendor's)");
        }
        try {
            VulkanFunctions vk = new VulkanFunctions(library.symbols(), library.location());
            String where;
            try (Arena arena = Arena.ofConfined()) {
                where = "Vulkan loader " + VkStructs.apiVersionName(vk.instanceVersion(arena)) + " at "
                        + library.location();
            }
            List<VulkanDevices.VulkanDevice> devices;
            try {
                devices = VulkanDevices.list(vk);
            } catch (VulkanException e) {
                String hint = e.result() == VkResults.VK_ERROR_INCOMPATIBLE_DRIVER
                        ? "; no Vulkan driver (ICD) is installed or none accepts the instance"
                        : "";
                return ProbeResult.unavailable(e.getMessage() + " (" + where + ")" + hint);
            }
            if (devices.isEmpty()) return ProbeResult.unavailable("0 devices (" + where + ")");
            return ProbeResult.available(
                    devices.stream().map(VulkanDevices.VulkanDevice::info).toList(), where + ": " + describe(devices));
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("Vulkan probe of " + library.location() + " failed: " + e.getMessage());
        }
    }

    private static String describe(List<VulkanDevices.VulkanDevice> devices) {
        return devices.size()
                + (devices.size() == 1 ? " device: " : " devices: ")
                + devices.stream()
                        .map(d -> d.info().name() + " [" + d.info().kind() + ", "
                                + d.info().arch() + ", " + gib(d.info().memoryTotal())
                                + (d.budgetKnown()
                                        ? ", " + gib(d.info().memoryFree()) + " free"
                                        : ", free unknown without VK_EXT_memory_budget")
                                + "]")
                        .collect(Collectors.joining("; "));
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return VERIFIED;
    }

    @Override
    public Set<String> optionKeys() {
        return Set.of("vulkan.validation", "vulkan.staging", "vulkan.subgroups");
    }

    @Override
    public Backend open(int device, BackendConfig config) {
        ProbeResult p = probe();
        if (!p.available()) throw new BackendUnavailableException("Vulkan is unavailable: " + p.reason());
        if (device < 0 || device >= p.devices().size()) {
            throw new BackendUnavailableException("Vulkan device " + device + " does not exist; " + p.reason());
        }
        String validation = config.option("vulkan.validation", "off");
        String staging = config.option("vulkan.staging", "auto");
        if (!List.of("off", "auto", "on").contains(validation)) {
            throw new InvalidOptionValueException(
                    "vulkan.validation must be off, auto or on, got '" + validation + "'");
        }
        String subgroups = config.option("vulkan.subgroups", "auto");
        if (!List.of("auto", "off").contains(subgroups)) {
            throw new InvalidOptionValueException("vulkan.subgroups must be auto or off, got '" + subgroups + "'");
        }
        if (!List.of("auto", "always").contains(staging)) {
            throw new InvalidOptionValueException("vulkan.staging must be auto or always, got '" + staging + "'");
        }
        try {
            return new VulkanBackend(VulkanContext.open(
                    library, device, validation, staging.equals("always"), subgroups.equals("auto")));
        } catch (VulkanException | IllegalStateException e) {
            throw new BackendUnavailableException("opening Vulkan device " + device + " ("
                    + p.devices().get(device).name() + ") failed: " + e.getMessage());
        }
    }
}
