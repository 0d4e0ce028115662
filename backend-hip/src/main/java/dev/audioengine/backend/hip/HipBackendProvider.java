package dev.audioengine.backend.hip;

import dev.audioengine.api.spi.NativeLibrary;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.gpu.GpuException;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The ROCm (HIP) backend's entry point. Construction loads nothing; {@link #probe()} loads
 * libamdhip64, reads the runtime version, lists the devices and checks that hipRTC (which compiles
 * the kernels) is there and that its compiler knows each device's processor. The kernels compile
 * for AMD today ({@code audioengine kernels compile --backend hip}); running them waits for the
 * vendor-neutral GPU op layer that CUDA and HIP will share, so the backend reports itself
 * unavailable, with its devices, until then.
 */
public final class HipBackendProvider implements BackendProvider {
    /**
     * The capabilities verified for HIP. It starts with CONV_TRANSPOSE1D_COL2IM only; another is added
     * here once `audioengine check --backend hip` passes all of its cases on an AMD GPU, with the run
     * recorded in docs/HIP.md (the README's capability table lists each one's hardware).
     */
    static final Set<Capability> VERIFIED = Set.of(Capability.CONV_TRANSPOSE1D_COL2IM);

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
        NativeLibrary library = HipLibrary.find(sonames, folders.get());
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
            } catch (GpuException e) {
                return ProbeResult.unavailable(e.errorName() + " from " + e.call() + " (" + where + ")");
            }
            if (devices.isEmpty()) return ProbeResult.unavailable("0 devices (" + where + ")");
            HipRtc rtc;
            List<String> processors;
            try {
                rtc = HipRtc.load(library, folders.get());
                processors = AmdComgr.processors(folders.get());
            } catch (IllegalStateException e) {
                return new ProbeResult(false, e.getMessage() + ". " + where + " with " + describe(devices), devices);
            }
            Optional<String> why = whyKernelsCannotServe(devices, processors);
            if (why.isPresent()) return new ProbeResult(false, why.get() + ". " + where + " with " + describe(devices), devices);
            return new ProbeResult(false, "the ROCm backend compiles its kernels for these devices (hipRTC from " + rtc.location()
                    + ") but cannot run them yet: its op layer is to be shared with the CUDA backend's first (see docs/HIP.md). "
                    + where + " with " + describe(devices), devices);
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("ROCm probe of " + library.location() + " failed: " + e.getMessage());
        }
    }

    /**
     * Why the kernels cannot be compiled for every device, if so: a gcnArchName this build could not
     * read, or a processor the installed compiler does not know (hipRTC would abort the process on it).
     */
    static Optional<String> whyKernelsCannotServe(List<DeviceInfo> devices, List<String> processors) {
        if (devices.stream().anyMatch(d -> d.arch().equals(HipDevices.UNKNOWN_ARCH))) {
            return Optional.of("could not read a device's gcnArchName (this runtime's hipDeviceProp_t layout is not one this"
                    + " build knows), so the kernels cannot be compiled for it");
        }
        List<String> unknown = devices.stream().map(d -> AmdComgr.processorOf(d.arch()))
                .filter(p -> !processors.contains(p)).distinct().toList();
        if (unknown.isEmpty()) return Optional.empty();
        return Optional.of("the compiler of this ROCm cannot target " + String.join(", ", unknown) + " (it knows "
                + String.join(", ", processors) + "); install a ROCm that supports the GPU");
    }

    private static String describe(List<DeviceInfo> devices) {
        return devices.size() + (devices.size() == 1 ? " device: " : " devices: ") + devices.stream()
                .map(d -> d.name() + " (" + d.arch() + ", " + d.kind() + ", " + HipDevices.gib(d.memoryTotal())
                        + ", " + HipDevices.gib(d.memoryFree()) + " free)")
                .collect(Collectors.joining("; "));
    }

    @Override public Set<Capability> verifiedCapabilities() { return VERIFIED; }

    @Override
    public synchronized Backend open(int device, BackendConfig config) {
        throw new BackendUnavailableException(probe().reason());
    }
}
