package dev.audioengine.backend.cuda;

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
import java.util.stream.Collectors;

/**
 * The CUDA backend's entry point. Construction loads nothing; {@link #probe()} loads libcuda,
 * initializes the driver and lists the devices. Until the kernels land the backend reports
 * itself unavailable, with whatever devices it found named in the reason.
 */
public final class CudaBackendProvider implements BackendProvider {
    private final List<String> sonames;
    private final List<Path> folders;
    private ProbeResult probed;

    public CudaBackendProvider() {
        this(CudaLibrary.SONAMES, CudaLibrary.FOLDERS);
    }

    /** For tests: search other names and folders. */
    CudaBackendProvider(List<String> sonames, List<Path> folders) {
        this.sonames = List.copyOf(sonames);
        this.folders = List.copyOf(folders);
    }

    @Override public String registryName() { return "CUDA"; }

    @Override public BackendType type() { return BackendType.CUDA; }

    /** Probes once per provider; never throws. */
    @Override
    public synchronized ProbeResult probe() {
        if (probed == null) probed = probeOnce();
        return probed;
    }

    private ProbeResult probeOnce() {
        CudaLibrary library = CudaLibrary.find(sonames, folders);
        if (!library.found()) {
            return ProbeResult.unavailable(sonames.getFirst() + " not found (" + library.searchReport()
                    + "); install the NVIDIA driver (the CUDA toolkit alone does not provide it)");
        }
        try {
            CudaDriver driver = new CudaDriver(library.symbols(), library.location());
            String version;
            try (Arena arena = Arena.ofConfined()) {
                version = versionName(driver.driverVersion(arena));
            }
            String where = "driver for CUDA " + version + " at " + library.location();
            try {
                driver.init();
            } catch (CudaException e) {
                return ProbeResult.unavailable(e.getMessage() + " (" + where + ")");
            }
            List<DeviceInfo> devices = CudaDevices.list(driver);
            if (devices.isEmpty()) return ProbeResult.unavailable("0 devices (" + where + ")");
            return new ProbeResult(false, "CUDA backend kernels are not in this build yet; " + where + " found "
                    + describe(devices), devices);
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("CUDA probe of " + library.location() + " failed: " + e.getMessage());
        }
    }

    /** cuDriverGetVersion's 1000 * major + 10 * minor as "major.minor". */
    static String versionName(int version) {
        return version / 1000 + "." + (version % 1000) / 10;
    }

    private static String describe(List<DeviceInfo> devices) {
        return devices.size() + (devices.size() == 1 ? " device: " : " devices: ") + devices.stream()
                .map(d -> d.name() + " (" + d.arch() + ", " + d.kind() + ", " + CudaDevices.gib(d.memoryTotal())
                        + ", " + CudaDevices.gib(d.memoryFree()) + " free)")
                .collect(Collectors.joining("; "));
    }

    @Override public Set<Capability> verifiedCapabilities() { return Set.of(); }

    @Override
    public Backend open(int device, BackendConfig config) {
        throw new BackendUnavailableException(probe().reason());
    }
}
