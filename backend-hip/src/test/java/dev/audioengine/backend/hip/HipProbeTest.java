package dev.audioengine.backend.hip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.ProbeResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HipProbeTest {

    private static boolean runtimeInstalled() {
        return HipLibrary.find(HipLibrary.SONAMES, HipLibrary.defaultFolders()).found();
    }

    @Test
    void missingLibraryNamesEveryNameAndFolderTried(@TempDir Path empty) {
        List<String> names =
                List.of("libaudioengine-absent.so.7", "libaudioengine-absent.so.6", "libaudioengine-absent.so");
        List<Path> folders = List.of(Path.of("/nonexistent/rocm/lib"), empty);

        ProbeResult r = new HipBackendProvider(names, folders).probe();

        assertThat(r.available()).isFalse();
        assertThat(r.devices()).isEmpty();
        assertThat(r.reason())
                .startsWith("the ROCm HIP runtime was not found (tried ")
                .contains(names)
                .contains("loader path", "/nonexistent/rocm/lib", empty.toString())
                .contains("install ROCm (libamdhip64)");
    }

    @Test
    void aFileThatIsNotALibraryIsReportedAsUnloadable(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("libaudioengine-fake.so.5"), "not an ELF file, just text. ".repeat(8));

        ProbeResult r = new HipBackendProvider(List.of("libaudioengine-fake.so.5"), List.of(folder)).probe();

        assertThat(r.reason())
                .contains(folder.resolve("libaudioengine-fake.so.5") + " exists but could not be loaded: ")
                .contains("invalid ELF header");
    }

    @Test
    void versionedRocmFoldersAreSearchedNewestFirstBetweenOptRocmAndTheDistribution(@TempDir Path opt)
            throws IOException {
        for (String v : List.of("rocm-5.7.1", "rocm-6.10.0", "rocm-6.9.2")) Files.createDirectories(opt.resolve(v));

        assertThat(HipLibrary.folders(opt))
                .containsExactly(
                        opt.resolve("rocm/lib"),
                        opt.resolve("rocm-6.10.0/lib"),
                        opt.resolve("rocm-6.9.2/lib"),
                        opt.resolve("rocm-5.7.1/lib"),
                        Path.of("/usr/lib/x86_64-linux-gnu"));
    }

    @Test
    void withoutVersionedFoldersThePatternIsStillReported(@TempDir Path opt) {
        assertThat(HipLibrary.folders(opt))
                .containsExactly(
                        opt.resolve("rocm/lib"), opt.resolve("rocm-*/lib"), Path.of("/usr/lib/x86_64-linux-gnu"));
    }

    @Test
    void aLibraryWithoutTheRuntimeSymbolsGivesAClearReason() {
        ProbeResult r = new HipBackendProvider(List.of("libc.so.6"), List.of()).probe();

        assertThat(r.available()).isFalse();
        assertThat(r.reason()).contains("does not export hipRuntimeGetVersion").contains("not the ROCm HIP runtime");
    }

    @Test
    void withTheRuntimeButNoAmdGpuTheProbeReportsHipErrorNoDeviceAndTheVersion() {
        assumeTrue(runtimeInstalled(), "libamdhip64 is not installed here (CI installs libamdhip64-5)");
        assumeFalse(Files.exists(Path.of("/dev/kfd")), "an AMD GPU driver (/dev/kfd) is present; see the next test");

        ProbeResult r = new HipBackendProvider().probe();

        assertThat(r.available()).isFalse();
        assertThat(r.devices()).isEmpty();
        assertThat(r.reason())
                .matches("hipErrorNoDevice from hipGetDeviceCount \\(ROCm runtime \\d+\\.\\d+\\.\\d+"
                        + "(, driver \\d+\\.\\d+\\.\\d+)? found at /\\S*libamdhip64\\.so\\S*\\)");
    }

    @Test
    void withAnAmdGpuTheProbeListsItsDevices() {
        assumeTrue(runtimeInstalled() && Files.exists(Path.of("/dev/kfd")), "no ROCm runtime and AMD GPU driver here");

        ProbeResult r = new HipBackendProvider().probe();
        System.out.println("ROCm probe: " + r);

        assertThat(r.available()).as(r.reason()).isTrue();
        assertThat(r.reason())
                .startsWith("ROCm runtime ")
                .contains("hipRTC from ")
                .containsPattern("GEMM: (hipBLASLt /|engine GEMM kernels \\(hipBLASLt not found)");
        assertThat(r.devices()).isNotEmpty().allSatisfy(d -> {
            assertThat(d.arch()).startsWith("gfx");
            assertThat(d.memoryTotal()).isPositive();
        });
    }

    @Test
    void openFailsWithTheProbeReason() {
        HipBackendProvider provider = new HipBackendProvider(List.of("libaudioengine-absent.so.6"), List.of());

        assertThatThrownBy(() -> provider.open(0, BackendConfig.defaults()))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessage(provider.probe().reason());
    }

    @Test
    void hipVersionNumbersDecodeAsHipVersionH() {
        // HIP_VERSION = major * 10000000 + minor * 100000 + patch; 50221153 is what ROCm 5.2's runtime returns.
        assertThat(HipDevices.versionName(50221153)).isEqualTo("5.2.21153");
        assertThat(HipDevices.versionName(60443483)).isEqualTo("6.4.43483");
        assertThat(HipDevices.versionName(70051831)).isEqualTo("7.0.51831");
    }

    @Test
    void devicesWhoseProcessorTheCompilerDoesNotKnowAreNamedInTheReason() {
        List<String> rocm52 = List.of("gfx900", "gfx906", "gfx90a", "gfx1030");
        DeviceInfo rdna2 =
                new DeviceInfo(0, "AMD Radeon RX 6800 XT", "gfx1030", DeviceKind.DISCRETE_GPU, 16L << 30, 15L << 30);
        DeviceInfo mi210 = new DeviceInfo(
                1, "AMD Instinct MI210", "gfx90a:sramecc+:xnack-", DeviceKind.DISCRETE_GPU, 64L << 30, 60L << 30);
        DeviceInfo rdna3 =
                new DeviceInfo(2, "AMD Radeon 780M", "gfx1103", DeviceKind.INTEGRATED_GPU, 8L << 30, 7L << 30);
        DeviceInfo unreadable =
                new DeviceInfo(3, "AMD GPU", HipDevices.UNKNOWN_ARCH, DeviceKind.DISCRETE_GPU, 8L << 30, 7L << 30);

        assertThat(HipBackendProvider.whyKernelsCannotServe(List.of(rdna2, mi210), rocm52))
                .isEmpty();
        assertThat(HipBackendProvider.whyKernelsCannotServe(List.of(rdna2, rdna3), rocm52))
                .hasValueSatisfying(
                        r -> assertThat(r)
                                .startsWith(
                                        "the compiler of this ROCm cannot target gfx1103 (it knows gfx900, gfx906, gfx90a, gfx1030)"));
        assertThat(HipBackendProvider.whyKernelsCannotServe(List.of(unreadable), rocm52))
                .hasValueSatisfying(r -> assertThat(r).startsWith("could not read a device's gcnArchName"));
    }
}
