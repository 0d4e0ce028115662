package dev.audioengine.backend.hip;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.ProbeResult;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The ROCm (HIP) backend's entry point. Construction loads nothing; {@link #probe()} loads
 * libamdhip64, reads the runtime version and lists the devices. Until the kernels land the backend
 * reports itself unavailable, with whatever devices it found named in the reason.
 */
public final class HipBackendProvider implements BackendProvider {
    private final List<String> sonames;
    private final Supplier<List<Path>> folders;
    private ProbeResult probed;

    public HipBackendProvider() {
        this(HipLibrary.SONAMES, HipLibrary::defaultFolders);
    }

    /** For tests: search other names and folders. */
    HipBackendProvider(List<String> sonames, List<Path> folders) {
        this(sonames, () -> folders);
    }

    private HipBackendProvider(List<String> sonames, Supplier<List<Path>> folders) {
        this.sonames = List.copyOf(sonames);
        this.folders = folders;
    }

    @Override public String registryName() { return "ROCm"; }

    @Override public BackendType type() { return BackendType.HIP; }

    /** Probes once per provider; never throws. */
    @Override
    public synchronized ProbeResult probe() {
        if (probed == null) probed = probeOnce();
        return probed;
    }

    private ProbeResult probeOnce() {
        HipLibrary library = HipLibrary.find(sonames, folders.get());
        if (!library.found()) {
            return ProbeResult.unavailable("the ROCm HIP runtime was not found (" + library.searchReport()
                    + "); install ROCm (libamdhip64) or put its lib folder on LD_LIBRARY_PATH");
        }
        try {
            HipRuntime runtime = new HipRuntime(library.symbols(), library.location());
            String where;
            try (Arena arena = Arena.ofConfined()) {
                int runtimeVersion = runtime.runtimeVersion(arena);
                int driverVersion = runtime.driverVersion(arena);
                // On AMD both report HIP_VERSION; a different driver figure is worth showing.
                where = "ROCm runtime " + HipDevices.versionName(runtimeVersion)
                        + (driverVersion == runtimeVersion ? "" : ", driver " + HipDevices.versionName(driverVersion))
                        + " found at " + library.location();
            }
            List<DeviceInfo> devices;
            try {
                devices = HipDevices.list(runtime);
            } catch (HipException e) {
                return ProbeResult.unavailable(e.errorName() + " from " + e.call() + " (" + where + ")");
            }
            if (devices.isEmpty()) return ProbeResult.unavailable("0 devices (" + where + ")");
            return new ProbeResult(false, "ROCm backend kernels are not in this build yet; " + where + " with "
                    + describe(devices), devices);
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("ROCm probe of " + library.location() + " failed: " + e.getMessage());
        }
    }

    private static String describe(List<DeviceInfo> devices) {
        return devices.size() + (devices.size() == 1 ? " device: " : " devices: ") + devices.stream()
                .map(d -> d.name() + " (" + d.arch() + ", " + d.kind() + ", " + HipDevices.gib(d.memoryTotal())
                        + ", " + HipDevices.gib(d.memoryFree()) + " free)")
                .collect(Collectors.joining("; "));
    }

    @Override public Set<Capability> verifiedCapabilities() { return Set.of(); }

    @Override
    public Backend open(int device, BackendConfig config) {
        throw new BackendUnavailableException(probe().reason());
    }
}
