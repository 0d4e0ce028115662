package dev.audioengine.api.registry;

import static dev.audioengine.api.registry.FakeProvider.available;
import static dev.audioengine.api.registry.FakeProvider.device;
import static dev.audioengine.api.registry.FakeProvider.unavailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.ProbeResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Selection by type and ordinal, 'best', and the error messages that explain a refusal. */
class BackendRegistrySelectionTest {

    private static FakeProvider cpu() {
        return available(BackendType.CPU, "CPU", device(0, "host-cpu", DeviceKind.CPU));
    }

    /** Every permutation order must give the same answer: the registry may not depend on discovery order. */
    private static BackendRegistry.Selection bestOf(long seed, BackendProvider... providers) {
        List<BackendProvider> list = new ArrayList<>(List.of(providers));
        Collections.shuffle(list, new Random(seed));
        return BackendRegistry.of(list).select(BackendType.BEST_AVAILABLE, 0);
    }

    @Test
    void bestPicksDiscreteOverIntegratedOverCpu() {
        for (long seed = 0; seed < 12; seed++) {
            FakeProvider vulkanIgpu =
                    available(BackendType.VULKAN, "Vulkan", device(0, "igpu", DeviceKind.INTEGRATED_GPU));
            FakeProvider cudaDgpu = available(BackendType.CUDA, "CUDA", device(0, "dgpu", DeviceKind.DISCRETE_GPU));
            BackendRegistry.Selection all = bestOf(seed, cpu(), vulkanIgpu, cudaDgpu);
            assertThat(all.provider().registryName()).as("seed %d", seed).isEqualTo("CUDA");
            assertThat(all.device().name()).isEqualTo("dgpu");
            assertThat(all.why()).contains("best").contains("CUDA").contains("dgpu");

            assertThat(bestOf(seed, cpu(), vulkanIgpu).device().name())
                    .as("seed %d", seed)
                    .isEqualTo("igpu");
            assertThat(bestOf(seed, cpu()).device().name()).isEqualTo("host-cpu");
        }
    }

    @Test
    void bestPicksTheDiscreteDeviceEvenWhenItIsNotTheFirstOfItsBackend() {
        FakeProvider vulkan = available(
                BackendType.VULKAN,
                "Vulkan",
                device(0, "igpu", DeviceKind.INTEGRATED_GPU),
                device(1, "dgpu", DeviceKind.DISCRETE_GPU));
        BackendRegistry.Selection s = bestOf(1, cpu(), vulkan);
        assertThat(s.provider()).isSameAs(vulkan);
        assertThat(s.device().index()).isEqualTo(1);
    }

    @Test
    void bestIgnoresUnavailableGpusAndPrefersVendorApisOverVulkanForTheSameKind() {
        FakeProvider deadCuda = unavailable(BackendType.CUDA, "CUDA", "libcuda.so.1 not found");
        FakeProvider hip = available(BackendType.HIP, "ROCm", device(0, "rx", DeviceKind.DISCRETE_GPU));
        FakeProvider vulkan = available(BackendType.VULKAN, "Vulkan", device(0, "rx", DeviceKind.DISCRETE_GPU));
        for (long seed = 0; seed < 6; seed++) {
            assertThat(bestOf(seed, deadCuda, vulkan, hip, cpu()).provider().registryName())
                    .isEqualTo("ROCm");
        }
        assertThat(bestOf(2, deadCuda, cpu()).provider().type()).isEqualTo(BackendType.CPU);
    }

    @Test
    void bestPrefersTheCpuBackendOverAGpuApiOnASoftwareDevice() {
        FakeProvider lavapipe = available(BackendType.VULKAN, "Vulkan", device(0, "llvmpipe", DeviceKind.CPU));
        for (long seed = 0; seed < 6; seed++) {
            assertThat(bestOf(seed, lavapipe, cpu()).provider().type()).isEqualTo(BackendType.CPU);
        }
        FakeProvider igpu = available(BackendType.VULKAN, "Vulkan", device(0, "igpu", DeviceKind.INTEGRATED_GPU));
        assertThat(bestOf(1, igpu, cpu()).provider().type()).isEqualTo(BackendType.VULKAN);
    }

    @Test
    void bestRefusesADeviceOrdinalBecauseOrdinalsBelongToOneBackend() {
        BackendRegistry reg = BackendRegistry.of(List.of(cpu()));
        assertThatThrownBy(() -> reg.select(BackendType.BEST_AVAILABLE, 1))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("--device 1")
                .hasMessageContaining("best");
    }

    @Test
    void bestWithNothingAvailableListsEveryBackendAndReason() {
        BackendRegistry reg = BackendRegistry.of(List.of(
                unavailable(BackendType.CUDA, "CUDA", "libcuda.so.1 not found"),
                unavailable(BackendType.VULKAN, "Vulkan", "0 devices")));
        assertThatThrownBy(() -> reg.select(BackendType.BEST_AVAILABLE, 0))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("no backend is available")
                .hasMessageContaining("cuda (CUDA): unavailable: libcuda.so.1 not found")
                .hasMessageContaining("vulkan (Vulkan): unavailable: 0 devices");
    }

    @Test
    void requestingAnUnavailableBackendListsEveryBackendItsDevicesAndReasons() {
        BackendRegistry reg = BackendRegistry.of(List.of(
                cpu(),
                unavailable(BackendType.CUDA, "CUDA", "libcuda.so.1 not found (tried libcuda.so.1, libcuda.so)"),
                unavailable(BackendType.HIP, "ROCm", "hipGetDeviceCount: hipErrorNoDevice"),
                available(BackendType.VULKAN, "Vulkan", device(0, "lavapipe", DeviceKind.VIRTUAL_GPU))));
        assertThatThrownBy(() -> reg.select(BackendType.CUDA, 0))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageStartingWith("backend 'cuda' (CUDA) is unavailable: libcuda.so.1 not found")
                .hasMessageContaining("cpu (CPU): available, 1 device(s)")
                .hasMessageContaining("[0] host-cpu")
                .hasMessageContaining(
                        "cuda (CUDA): unavailable: libcuda.so.1 not found (tried libcuda.so.1, libcuda.so)")
                .hasMessageContaining("hip (ROCm): unavailable: hipGetDeviceCount: hipErrorNoDevice")
                .hasMessageContaining("vulkan (Vulkan): available, 1 device(s)")
                .hasMessageContaining("[0] lavapipe");
    }

    @Test
    void rocmRequestSelectsTheHipProvider() {
        FakeProvider hip = available(BackendType.HIP, "ROCm", device(0, "gfx1100", DeviceKind.DISCRETE_GPU));
        BackendRegistry reg = BackendRegistry.of(List.of(cpu(), hip));
        assertThat(reg.select(BackendType.parse("rocm"), 0).provider()).isSameAs(hip);
    }

    @Test
    void requestingAMissingBackendSaysItIsNotInstalled() {
        BackendRegistry reg = BackendRegistry.of(List.of(cpu()));
        assertThatThrownBy(() -> reg.select(BackendType.METAL, 0))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("'metal' is not installed")
                .hasMessageContaining("cpu (CPU): available");
    }

    @Test
    void deviceOrdinalSelectsThatDeviceAndOutOfRangeIsExplained() {
        FakeProvider cuda = available(
                BackendType.CUDA,
                "CUDA",
                device(0, "gpu0", DeviceKind.DISCRETE_GPU),
                device(1, "gpu1", DeviceKind.DISCRETE_GPU));
        BackendRegistry reg = BackendRegistry.of(List.of(cpu(), cuda));
        assertThat(reg.select(BackendType.CUDA, 1).device().name()).isEqualTo("gpu1");
        assertThatThrownBy(() -> reg.select(BackendType.CUDA, 2))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("2 device(s)")
                .hasMessageContaining("--device 2 does not exist")
                .hasMessageContaining("[1] gpu1");
    }

    @Test
    void aThrowingOrSilentProbeBecomesAnUnavailableBackendWithAReason() {
        FakeProvider throwing = new FakeProvider(BackendType.CUDA, "CUDA", () -> {
            throw new UnsatisfiedLinkError("no libcuda in java.library.path");
        });
        FakeProvider silent = new FakeProvider(BackendType.VULKAN, "Vulkan", () -> null);
        BackendRegistry reg = BackendRegistry.of(List.of(cpu(), throwing, silent));
        ProbeResult r = reg.probe(throwing);
        assertThat(r.available()).isFalse();
        assertThat(r.reason()).contains("CUDA probe failed").contains("no libcuda in java.library.path");
        assertThat(reg.probe(silent).reason()).contains("Vulkan probe returned nothing");
        assertThat(reg.select(BackendType.CPU, 0).provider().type()).isEqualTo(BackendType.CPU);
    }

    @Test
    void aMissingIncubatorModuleOnTheClassPathIsReportedWithTheFlagThatAddsIt() {
        FakeProvider vectorless = new FakeProvider(BackendType.CPU, "CPU", () -> {
            throw new NoClassDefFoundError("jdk/incubator/vector/FloatVector");
        });
        ProbeResult r = BackendRegistry.of(List.of(vectorless)).probe(vectorless);
        assertThat(r.available()).isFalse();
        assertThat(r.reason())
                .isEqualTo(
                        "CPU needs the module jdk.incubator.vector, which this JVM was started without: add --add-modules "
                                + "jdk.incubator.vector to the java command (needed on the class path; the module path adds it by itself)");
        FakeProvider otherClass = new FakeProvider(BackendType.CPU, "CPU", () -> {
            throw new NoClassDefFoundError("com/example/Missing");
        });
        assertThat(BackendRegistry.of(List.of(otherClass)).probe(otherClass).reason())
                .isEqualTo("CPU probe failed: java.lang.NoClassDefFoundError: com/example/Missing");
    }

    @Test
    void probesRunOncePerRegistry() {
        FakeProvider cuda = unavailable(BackendType.CUDA, "CUDA", "0 devices");
        BackendRegistry reg = BackendRegistry.of(List.of(cpu(), cuda));
        reg.describe();
        assertThatThrownBy(() -> reg.select(BackendType.CUDA, 0)).isInstanceOf(BackendUnavailableException.class);
        reg.select(BackendType.BEST_AVAILABLE, 0);
        assertThat(cuda.probes).hasValue(1);
    }

    @Test
    void providersAreListedInTypeOrderWhateverTheDiscoveryOrder() {
        BackendRegistry reg = BackendRegistry.of(List.of(
                unavailable(BackendType.VULKAN, "Vulkan", "x"), unavailable(BackendType.HIP, "ROCm", "x"),
                cpu(), unavailable(BackendType.CUDA, "CUDA", "x")));
        assertThat(reg.providers())
                .extracting(BackendProvider::registryName)
                .containsExactly("CPU", "CUDA", "ROCm", "Vulkan");
    }

    @Test
    void engineApiAloneDiscoversNoBackendAndSaysWhereToLook() {
        // engine-api's test class path has no backend jar: discovery must find nothing, not invent a CPU.
        BackendRegistry reg = BackendRegistry.load();
        assertThat(reg.providers()).isEmpty();
        assertThat(reg.describe()).contains("none found");
        assertThatThrownBy(() -> reg.select(BackendType.CPU, 0))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("not installed");
    }
}
