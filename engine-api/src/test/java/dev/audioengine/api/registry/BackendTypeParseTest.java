package dev.audioengine.api.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.BackendType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Command-line backend names and registry names map to the right types; bad names say what is valid. */
class BackendTypeParseTest {

    @ParameterizedTest
    @CsvSource({
        "cpu, CPU",
        "cuda, CUDA",
        "hip, HIP",
        "rocm, HIP",
        "vulkan, VULKAN",
        "metal, METAL",
        "best, BEST_AVAILABLE",
        "ROCm, HIP",
        "ROCM, HIP",
        "Cuda, CUDA",
        "VULKAN, VULKAN",
        "Best, BEST_AVAILABLE",
        "'  cpu ', CPU"
    })
    void parsesEveryCliSpellingCaseInsensitively(String name, BackendType expected) {
        assertThat(BackendType.parse(name)).isEqualTo(expected);
    }

    @Test
    void rocmPrintsAsHip() {
        assertThat(BackendType.parse("rocm").cliName()).isEqualTo("hip");
    }

    @Test
    void everyTypeRoundTripsThroughItsCliName() {
        for (BackendType t : BackendType.values())
            assertThat(BackendType.parse(t.cliName())).isEqualTo(t);
    }

    @Test
    void unknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> BackendType.parse("opencl"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'opencl'")
                .hasMessageContaining("cpu, cuda, hip, rocm, vulkan, metal, best");
        assertThatThrownBy(() -> BackendType.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BackendType.parse(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cpu, cuda");
    }

    @ParameterizedTest
    @CsvSource({"CPU, CPU", "CUDA, CUDA", "ROCm, HIP", "Vulkan, VULKAN", "Metal, METAL"})
    void registryNamesMapToTypes(String registryName, BackendType expected) {
        assertThat(BackendRegistry.typeOf(registryName)).isEqualTo(expected);
    }

    @Test
    void aHipDeviceIsNeverReportedAsCuda() {
        assertThat(BackendRegistry.typeOf("ROCm")).isNotEqualTo(BackendType.CUDA);
        assertThatThrownBy(() -> BackendRegistry.typeOf("HIP"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ROCm");
    }
}
