package dev.audioengine.backend.hip;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.gpu.GpuBackend;
import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.GpuVendor;
import dev.audioengine.gpu.gemm.GemmChoice;
import dev.audioengine.gpu.gemm.GpuBlas;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The ROCm (HIP) backend's entry point. Construction loads nothing; {@link #probe()} loads
 * libamdhip64, reads the runtime version, lists the devices, checks that hipRTC (which compiles
 * the kernels) is there and that its compiler knows each device's processor, and looks for
 * hipBLASLt; {@link #open} opens one device as a {@link GpuBackend}, the op layer CUDA runs on,
 * driven through the HIP tables (HipApi, HipRtc, HipBlasLt). Options beyond GpuBackend's
 * {@code hip.*} ones: {@code hip.hipblaslt=on|off} and {@code hip.rocblas=on|off} (GEMMs on hipBLASLt
 * when it is installed, else on rocBLAS, else on the engine's own kernels; both default on). {@code hip.graphs} defaults to off on integrated GPUs,
 * whose graph buffers come out of shared system memory, and on for discrete ones.
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
    private HipRuntime runtime;
    private NativeLibrary library;
    private String rocmVersion;

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

    @Override
    public String registryName() {
        return "ROCm";
    }

    @Override
    public BackendType type() {
        return BackendType.HIP;
    }

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
            String version;
            try (Arena arena = Arena.ofConfined()) {
                int runtimeVersion = runtime.runtimeVersion(arena);
                version = HipDevices.versionName(runtimeVersion);
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
                rtc = HipRtc.load(library, folders.get(), version);
                processors = AmdComgr.processors(folders.get());
            } catch (IllegalStateException e) {
                return new ProbeResult(false, e.getMessage() + ". " + where + " with " + describe(devices), devices);
            }
            Optional<String> why = whyKernelsCannotServe(devices, processors);
            if (why.isPresent())
                return new ProbeResult(false, why.get() + ". " + where + " with " + describe(devices), devices);
            NativeLibrary blas = NativeLibrary.find(HipBlasLt.SONAMES, folders.get(), "hipblasLtCreate");
            NativeLibrary rocblas =
                    blas.found() ? null : NativeLibrary.find(RocBlas.SONAMES, folders.get(), "rocblas_create_handle");
            this.runtime = runtime;
            this.library = library;
            this.rocmVersion = version;
            return ProbeResult.available(
                    devices,
                    where + "; hipRTC from " + rtc.location() + "; GEMM: "
                            + (blas.found()
                                    ? "hipBLASLt " + blas.location()
                                    : rocblas.found()
                                            ? "rocBLAS " + rocblas.location() + " (hipBLASLt not found)"
                                            : "engine GEMM kernels (hipBLASLt not found: " + blas.searchReport()
                                                    + "; rocBLAS not found: " + rocblas.searchReport() + ")"));
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
            return Optional.of(
                    "could not read a device's gcnArchName (this runtime's hipDeviceProp_t layout is not one this"
                            + " build knows), so the kernels cannot be compiled for it");
        }
        List<String> unknown = devices.stream()
                .map(d -> AmdComgr.processorOf(d.arch()))
                .filter(p -> !processors.contains(p))
                .distinct()
                .toList();
        if (unknown.isEmpty()) return Optional.empty();
        return Optional.of("the compiler of this ROCm cannot target " + String.join(", ", unknown) + " (it knows "
                + String.join(", ", processors) + "); install a ROCm that supports the GPU");
    }

    private static String describe(List<DeviceInfo> devices) {
        return devices.size()
                + (devices.size() == 1 ? " device: " : " devices: ")
                + devices.stream()
                        .map(d -> d.name() + " (" + d.arch() + ", " + d.kind() + ", " + HipDevices.gib(d.memoryTotal())
                                + ", " + HipDevices.gib(d.memoryFree()) + " free)")
                        .collect(Collectors.joining("; "));
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return VERIFIED;
    }

    @Override
    public Set<String> optionKeys() {
        Set<String> keys = new java.util.HashSet<>(dev.audioengine.gpu.GpuBackend.optionKeys("hip"));
        keys.addAll(Set.of("hip.hipblaslt", "hip.rocblas"));
        return Set.copyOf(keys);
    }

    /** Graph capture is on by default for discrete GPUs only: an integrated GPU's graph buffers come out of shared system memory. */
    static GpuVendor vendor(DeviceInfo device) {
        return new GpuVendor("ROCm", "hip", VERIFIED, device.kind() != DeviceKind.INTEGRATED_GPU);
    }

    /** hipBLASLt when present and not switched off, else rocBLAS likewise, else the engine's own GEMM kernels. */
    static GemmChoice gemm(BackendConfig config, Supplier<GpuBlas> hipBlasLt, Supplier<GpuBlas> rocBlas) {
        return GemmChoice.firstAvailable(
                () -> GemmChoice.select("hip.hipblaslt", config.option("hip.hipblaslt", "on"), "hipBLASLt", hipBlasLt),
                () -> GemmChoice.select("hip.rocblas", config.option("hip.rocblas", "on"), "rocBLAS", rocBlas));
    }

    @Override
    public synchronized Backend open(int device, BackendConfig config) {
        ProbeResult p = probe();
        if (!p.available()) throw new BackendUnavailableException(p.reason());
        if (device < 0 || device >= p.devices().size()) {
            throw new BackendUnavailableException("ROCm device " + device + " does not exist; this machine has "
                    + describe(p.devices()) + " (--device counts from 0)");
        }
        DeviceInfo info = p.devices().get(device);
        HipApi api = new HipApi(runtime, library.symbols(), library.location());
        api.open(device);
        List<Path> searched = folders.get();
        GpuVendor vendor = vendor(info);
        try {
            return new GpuBackend(
                    vendor,
                    info,
                    device,
                    api,
                    () -> HipRtc.load(library, searched, rocmVersion),
                    rt -> gemm(config, () -> HipBlasLt.load(api, searched), () -> RocBlas.load(searched)),
                    config);
        } catch (IllegalStateException e) {
            throw new BackendUnavailableException(
                    "ROCm device " + device + " could not be opened: " + e.getMessage(), e);
        }
    }
}
