package dev.audioengine.backend.vulkan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.backend.vulkan.device.VulkanDevices;
import dev.audioengine.backend.vulkan.ffm.VkResults;
import dev.audioengine.backend.vulkan.ffm.VulkanLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VulkanProbeTest {

    @Test
    void missingLibraryNamesEveryNameAndFolderTried(@TempDir Path empty) {
        List<String> names = List.of("libaudioengine-absent.so.1", "libaudioengine-absent.so");
        List<Path> folders = List.of(Path.of("/nonexistent/vulkan"), empty);

        ProbeResult r = new VulkanBackendProvider(names, folders).probe();

        assertThat(r.available()).isFalse();
        assertThat(r.devices()).isEmpty();
        assertThat(r.reason())
                .startsWith("libaudioengine-absent.so.1 not found (tried ")
                .contains(names)
                .contains("loader path", "/nonexistent/vulkan", empty.toString())
                .contains("install the Vulkan loader (libvulkan1)");
    }

    @Test
    void aFileThatIsNotALibraryIsReportedAsUnloadable(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("libaudioengine-fake.so.1"), "not an ELF file, just text. ".repeat(8));

        ProbeResult r = new VulkanBackendProvider(List.of("libaudioengine-fake.so.1"), List.of(folder)).probe();

        assertThat(r.reason())
                .contains(folder.resolve("libaudioengine-fake.so.1") + " exists but could not be loaded: ")
                .contains("invalid ELF header");
    }

    @Test
    void aLibraryWithoutTheLoaderSymbolsGivesAClearReason() {
        ProbeResult r = new VulkanBackendProvider(List.of("libc.so.6"), List.of()).probe();

        assertThat(r.available()).isFalse();
        assertThat(r.reason()).contains("does not export vkCreateInstance").contains("not the Vulkan loader");
    }

    @Test
    void theLoaderFindsLavapipeAsACpuDevice() {
        assumeTrue(
                VulkanLibrary.find(VulkanLibrary.SONAMES, VulkanLibrary.FOLDERS).found(),
                "libvulkan is not installed here (CI installs libvulkan1 and mesa-vulkan-drivers)");

        ProbeResult r = new VulkanBackendProvider().probe();
        System.out.println("Vulkan probe: " + r);

        assertThat(r.available()).isTrue();
        assertThat(r.reason())
                .startsWith("Vulkan loader 1.")
                .containsPattern("llvmpipe \\(LLVM [^)]*\\) \\[CPU, Vulkan 1\\.\\d+\\.\\d+, ");
        assertThat(r.devices()).anySatisfy(d -> {
            assertThat(d.name()).startsWith("llvmpipe");
            assertThat(d.kind()).isEqualTo(DeviceKind.CPU);
            assertThat(d.arch()).matches("Vulkan 1\\.\\d+\\.\\d+");
            assertThat(d.memoryTotal()).isPositive();
            assertThat(d.memoryFree()).isBetween(0L, d.memoryTotal());
        });
        assertThat(r.devices())
                .extracting(d -> d.index())
                .containsExactlyElementsOf(
                        java.util.stream.IntStream.range(0, r.devices().size())
                                .boxed()
                                .toList());
    }

    @Test
    void openFailsWithTheProbeReason() {
        VulkanBackendProvider provider = new VulkanBackendProvider(List.of("libaudioengine-absent.so.1"), List.of());

        assertThatThrownBy(() -> provider.open(0, BackendConfig.defaults()))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessage("Vulkan is unavailable: " + provider.probe().reason());
    }

    @Test
    void deviceTypesRankAsTheRegistryExpects() {
        assertThat(VulkanDevices.kind(2)).isEqualTo(DeviceKind.DISCRETE_GPU);
        assertThat(VulkanDevices.kind(1)).isEqualTo(DeviceKind.INTEGRATED_GPU);
        assertThat(VulkanDevices.kind(3)).isEqualTo(DeviceKind.VIRTUAL_GPU);
        assertThat(VulkanDevices.kind(4)).isEqualTo(DeviceKind.CPU);
        assertThat(VulkanDevices.kind(0)).as("OTHER ranks lowest").isEqualTo(DeviceKind.CPU);
    }

    @Test
    void resultCodesAreNamed() {
        assertThat(VkResults.name(-9)).isEqualTo("VK_ERROR_INCOMPATIBLE_DRIVER");
        assertThat(VkResults.name(-1000001004)).isEqualTo("VkResult -1000001004");
    }
}
