package dev.audioengine.backend.hip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.gpu.GpuException;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HIP runtime table binds against the real libamdhip64 (ROCm 5.2 here and in CI): a misspelt or
 * missing entry point fails construction. Without an AMD GPU the first device call reports the
 * runtime's own error. In CI (CI set) a missing runtime fails instead of skipping.
 */
class HipApiBindingTest {

    private static NativeLibrary runtimeLibrary() {
        NativeLibrary lib = HipLibrary.find(HipLibrary.SONAMES, HipLibrary.defaultFolders());
        if (System.getenv("CI") != null)
            assertThat(lib.found()).as("CI installs libamdhip64-5").isTrue();
        assumeTrue(lib.found(), "libamdhip64 is not installed here (CI installs libamdhip64-5)");
        return lib;
    }

    @Test
    void everyEntryPointOfTheRuntimeTableBindsAgainstTheInstalledRuntime() {
        NativeLibrary lib = runtimeLibrary();
        HipRuntime runtime = new HipRuntime(lib.symbols(), lib.location());

        new HipApi(runtime, lib.symbols(), lib.location()); // throws naming the first symbol it cannot find

        List<String> symbols = HipApi.symbols(lib.symbols());
        assertThat(symbols)
                .as("every entry point of the table, the mirrored and HIP's own")
                .hasSize(34)
                .contains(
                        "hipModuleLaunchKernel",
                        "hipStreamBeginCapture",
                        "hipGraphInstantiateWithFlags",
                        "hipMallocAsync");
        assertThat(symbols.stream().filter(n -> lib.symbols().find(n).isEmpty()).toList())
                .as("entry points " + lib.location() + " does not export")
                .isEmpty();
    }

    @Test
    void theVirtualMemoryEntryPointsBindToo() {
        NativeLibrary lib = runtimeLibrary();
        HipApi api = new HipApi(new HipRuntime(lib.symbols(), lib.location()), lib.symbols(), lib.location());

        api.virtualMemory(0); // binds hipMemGetAllocationGranularity ... hipMemSetAccess, throwing for a missing one
        assertThat(HipApi.VMM_SYMBOLS)
                .allSatisfy(n -> assertThat(lib.symbols().find(n)).as(n).isPresent());
    }

    @Test
    void aLibraryThatIsNotTheRuntimeIsRefusedNamingTheSymbol() {
        NativeLibrary lib = runtimeLibrary();
        HipRuntime runtime = new HipRuntime(lib.symbols(), lib.location());

        assertThatThrownBy(() -> new HipApi(runtime, Linker.nativeLinker().defaultLookup(), "libc"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("libc does not export hipMemGetInfo; it is not a ROCm 5 or later HIP runtime");
    }

    @Test
    void withoutAnAmdGpuOpeningADeviceFailsWithTheRuntimesErrorName() {
        assumeFalse(Files.exists(Path.of("/dev/kfd")), "an AMD GPU driver is present here");
        NativeLibrary lib = runtimeLibrary();
        HipApi api = new HipApi(new HipRuntime(lib.symbols(), lib.location()), lib.symbols(), lib.location());

        assertThatThrownBy(() -> api.open(0))
                .isInstanceOf(GpuException.class)
                .hasMessageStartingWith("hipSetDevice(0) failed: hipError")
                .satisfies(e -> assertThat(((GpuException) e).errorName()).startsWith("hipError"));
    }

    @Test
    void heuristicResultMatchesHipblasltH() {
        // hipblasLtMatmulHeuristicResult_t { hipblasLtMatmulAlgo_t algo {uint8_t data[16]; size_t
        // max_workspace_bytes;};
        //   size_t workspaceSize; hipblasStatus_t state; float wavesCount; int reserved[4]; }
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteSize()).isEqualTo(56);
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("workspaceSize")))
                .isEqualTo(24);
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("state")))
                .isEqualTo(32);
        assertThat(HipBlasLt.CONSTANTS.heuristicResultBytes()).isEqualTo(56);
        assertThat(HipBlasLt.CONSTANTS.minAlignmentPrefs())
                .as("hipBLASLt has no alignment preferences")
                .isNull();
    }

    @Test
    void graphsAreOffByDefaultOnIntegratedGpusOnly() {
        DeviceInfo apu =
                new DeviceInfo(0, "AMD Radeon 780M", "gfx1103", DeviceKind.INTEGRATED_GPU, 16L << 30, 8L << 30);
        DeviceInfo card =
                new DeviceInfo(1, "AMD Radeon RX 7900 XTX", "gfx1100", DeviceKind.DISCRETE_GPU, 24L << 30, 20L << 30);

        assertThat(HipBackendProvider.vendor(apu).graphsByDefault()).isFalse();
        assertThat(HipBackendProvider.vendor(card).graphsByDefault()).isTrue();
        assertThat(HipBackendProvider.vendor(card).optionPrefix()).isEqualTo("hip");
        assertThat(HipBackendProvider.vendor(card).registryName()).isEqualTo("ROCm");
        assertThat(HipBackendProvider.vendor(card).verified()).containsExactly(Capability.CONV_TRANSPOSE1D_COL2IM);
    }
}
