package dev.audioengine.backend.cuda;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.gpu.GpuBackend;
import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.GpuVendor;
import dev.audioengine.gpu.gemm.GemmChoice;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The CUDA backend's entry point. Construction loads nothing; {@link #probe()} loads libcuda,
 * initializes the driver, lists the devices and checks that NVRTC (which compiles the kernels)
 * and cuBLASLt (the GEMM library) can be found; {@link #open} opens one device.
 */
public final class CudaBackendProvider implements BackendProvider {
    /**
     * The capabilities whose conformance cases all passed on an NVIDIA H200 (sm_90) with
     * scripts/gpu/cuda-evidence.sh; see docs/PERFORMANCE-cuda.md for the run. The block types' capabilities
     * (Q5_0_WEIGHTS ... Q4_1_WEIGHTS, Q6_K_WEIGHTS ... Q2_K_WEIGHTS) come with gpu-common's kernels for those blocks
     * (whose arithmetic BlockDecodeHostTest checks on the host against engine-api's); their conformance cases
     * ({@code check --backend cuda --dtype q5_0} and so on: matmul, get_rows, cast) passed on an H100 on 2026-12-06
     * (docs/evidence/gpu/cuda-blocks-h100-2026-12-06/).
     */
    static final Set<Capability> VERIFIED = Set.of(
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
            Capability.Q2_K_WEIGHTS);

    /** CUDA graphs are on unless cuda.graphs=off. */
    static final GpuVendor VENDOR = new GpuVendor("CUDA", "cuda", VERIFIED, true);

    private final List<String> sonames;
    private final List<Path> folders;
    private ProbeResult probed;
    private CudaDriver driver;
    private NativeLibrary library;

    public CudaBackendProvider() {
        this(CudaLibrary.SONAMES, CudaLibrary.FOLDERS);
    }

    /** For tests: search other names and folders. */
    CudaBackendProvider(List<String> sonames, List<Path> folders) {
        this.sonames = List.copyOf(sonames);
        this.folders = List.copyOf(folders);
    }

    @Override
    public String registryName() {
        return "CUDA";
    }

    @Override
    public BackendType type() {
        return BackendType.CUDA;
    }

    /** Probes once per provider; never throws. */
    @Override
    public synchronized ProbeResult probe() {
        if (probed == null) probed = probeOnce();
        return probed;
    }

    private ProbeResult probeOnce() {
        NativeLibrary library = CudaLibrary.find(sonames, folders);
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
            } catch (GpuException e) {
                return ProbeResult.unavailable(e.getMessage() + " (" + where + ")");
            }
            List<DeviceInfo> devices = CudaDevices.list(driver);
            if (devices.isEmpty()) return ProbeResult.unavailable("0 devices (" + where + ")");
            NativeLibrary nvrtc = CudaLibrary.find(Nvrtc.SONAMES, Nvrtc.FOLDERS);
            if (!nvrtc.found()) {
                return new ProbeResult(
                        false,
                        "NVRTC, which compiles the CUDA kernels, not found (" + nvrtc.searchReport()
                                + "); install cuda-nvrtc or put its folder on LD_LIBRARY_PATH. " + where + " found "
                                + describe(devices),
                        devices);
            }
            NativeLibrary lt = CudaLibrary.find(CublasLt.SONAMES, CublasLt.FOLDERS);
            if (!lt.found()) {
                return new ProbeResult(
                        false,
                        "cuBLASLt not found (" + lt.searchReport() + "); install libcublas or put its"
                                + " folder on LD_LIBRARY_PATH. " + where + " found " + describe(devices),
                        devices);
            }
            this.driver = driver;
            this.library = library;
            return ProbeResult.available(
                    devices, where + "; NVRTC " + nvrtc.location() + "; cuBLASLt " + lt.location());
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("CUDA probe of " + library.location() + " failed: " + e.getMessage());
        }
    }

    /** cuDriverGetVersion's 1000 * major + 10 * minor as "major.minor". */
    static String versionName(int version) {
        return version / 1000 + "." + (version % 1000) / 10;
    }

    private static String describe(List<DeviceInfo> devices) {
        return devices.size()
                + (devices.size() == 1 ? " device: " : " devices: ")
                + devices.stream()
                        .map(d -> d.name() + " (" + d.arch() + ", " + d.kind() + ", " + CudaDevices.gib(d.memoryTotal())
                                + ", " + CudaDevices.gib(d.memoryFree()) + " free)")
                        .collect(Collectors.joining("; "));
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return VERIFIED;
    }

    @Override
    public Set<String> optionKeys() {
        return dev.audioengine.gpu.GpuBackend.optionKeys("cuda");
    }

    @Override
    public synchronized Backend open(int device, BackendConfig config) {
        ProbeResult p = probe();
        if (!p.available()) throw new BackendUnavailableException(p.reason());
        if (device < 0 || device >= p.devices().size()) {
            throw new BackendUnavailableException("CUDA device " + device + " does not exist; this machine has "
                    + describe(p.devices()) + " (--device counts from 0)");
        }
        DriverApi api = new DriverApi(driver, library.symbols(), library.location(), device);
        try {
            return new GpuBackend(
                    VENDOR,
                    p.devices().get(device),
                    device,
                    api,
                    Nvrtc::load,
                    rt -> GemmChoice.required(CublasLt.load(api)),
                    config);
        } catch (IllegalStateException e) {
            throw new BackendUnavailableException(
                    "CUDA device " + device + " could not be opened: " + e.getMessage(), e);
        }
    }
}
