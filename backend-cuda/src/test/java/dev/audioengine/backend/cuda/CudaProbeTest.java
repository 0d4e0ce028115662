package dev.audioengine.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.api.spi.ProbeResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CudaProbeTest {

    @Test
    void missingLibraryNamesEveryNameAndFolderTried(@TempDir Path empty) {
        List<String> names = List.of("libaudioengine-absent-a.so.1", "libaudioengine-absent-b.so");
        List<Path> folders = List.of(Path.of("/nonexistent/audioengine"), empty);

        ProbeResult r = new CudaBackendProvider(names, folders).probe();

        assertThat(r.available()).isFalse();
        assertThat(r.devices()).isEmpty();
        assertThat(r.reason())
                .startsWith("libaudioengine-absent-a.so.1 not found (tried ")
                .contains(names)
                .contains("/nonexistent/audioengine", empty.toString())
                .contains("loader path")
                .endsWith("install the NVIDIA driver (the CUDA toolkit alone does not provide it)");
    }

    @Test
    void aFileThatIsNotALibraryIsReportedAsUnloadable(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("libaudioengine-fake.so.1"), "not an ELF file, just text. ".repeat(8));

        ProbeResult r = new CudaBackendProvider(List.of("libaudioengine-fake.so.1"), List.of(folder)).probe();

        assertThat(r.available()).isFalse();
        assertThat(r.reason())
                .contains(folder.resolve("libaudioengine-fake.so.1") + " exists but could not be loaded: ")
                .contains("invalid ELF header");
    }

    @Test
    void aLibraryWithoutTheDriverSymbolsGivesAClearReason() {
        ProbeResult r = new CudaBackendProvider(List.of("libc.so.6"), List.of()).probe();

        assertThat(r.available()).isFalse();
        assertThat(r.reason()).contains("does not export cuInit").contains("not the CUDA driver library");
    }

    @Test
    void onAMachineWithoutTheDriverTheProbeSaysLibcudaIsMissing() {
        assumeFalse(
                CudaLibrary.find(CudaLibrary.SONAMES, CudaLibrary.FOLDERS).found(),
                "libcuda is installed here; the no-driver case cannot be observed");

        ProbeResult r = new CudaBackendProvider().probe();

        assertThat(r.available()).isFalse();
        assertThat(r.reason())
                .startsWith("libcuda.so.1 not found (tried libcuda.so.1, libcuda.so on the loader path and in "
                        + "/usr/lib/x86_64-linux-gnu, /usr/local/cuda/compat, /usr/local/cuda/lib64, /usr/lib/wsl/lib");
    }

    @Test
    void withTheDriverInstalledTheProbeNamesTheDriverAndItsDevicesOrItsError() {
        assumeTrue(CudaLibrary.find(CudaLibrary.SONAMES, CudaLibrary.FOLDERS).found(), "libcuda is not installed here");

        ProbeResult r = new CudaBackendProvider().probe();
        System.out.println("CUDA probe: " + r);

        if (r.devices().isEmpty()) {
            assertThat(r.available()).isFalse();
            assertThat(r.reason()).containsAnyOf("cuInit failed: CUDA_ERROR_", "0 devices");
        } else {
            assertThat(r.reason()).contains("driver for CUDA ");
            if (r.available()) assertThat(r.reason()).contains("NVRTC ").contains("cuBLASLt ");
            else
                assertThat(r.reason())
                        .containsAnyOf("NVRTC, which compiles the CUDA kernels, not found", "cuBLASLt not found");
            assertThat(r.devices()).allSatisfy(d -> {
                assertThat(d.arch()).matches("sm_\\d{2,3}");
                assertThat(d.memoryTotal()).isPositive();
                assertThat(d.memoryFree()).isBetween(1L, d.memoryTotal());
            });
        }
    }

    @Test
    void verifiedCapabilitiesHaveConformanceEvidence() {
        for (var c : CudaBackendProvider.VERIFIED) {
            assertThat(dev.audioengine.conformance.CapabilityEvidence.cases(c))
                    .as(c + " evidence cases")
                    .isNotEmpty();
        }
    }

    @Test
    void openFailsWithTheProbeReason() {
        CudaBackendProvider provider = new CudaBackendProvider(List.of("libaudioengine-absent.so.1"), List.of());

        assertThatThrownBy(() -> provider.open(0, BackendConfig.defaults()))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessage(provider.probe().reason());
    }

    @Test
    void computeCapabilityAndDriverVersionAreNamedAsNvidiaDoes() {
        assertThat(CudaDevices.arch(9, 0)).isEqualTo("sm_90");
        assertThat(CudaDevices.arch(8, 6)).isEqualTo("sm_86");
        assertThat(CudaDevices.arch(12, 0)).isEqualTo("sm_120");
        assertThat(CudaBackendProvider.versionName(13000)).isEqualTo("13.0");
        assertThat(CudaBackendProvider.versionName(12040)).isEqualTo("12.4");
    }

    @Test
    void dlInfoMatchesDlfcnH() {
        // struct Dl_info { const char *dli_fname; void *dli_fbase; const char *dli_sname; void *dli_saddr; } on LP64
        assertThat(NativeLibrary.DL_INFO.byteSize()).isEqualTo(32);
        assertThat(NativeLibrary.DL_INFO.byteOffset(
                        java.lang.foreign.MemoryLayout.PathElement.groupElement("dli_sname")))
                .isEqualTo(16);
    }
}
