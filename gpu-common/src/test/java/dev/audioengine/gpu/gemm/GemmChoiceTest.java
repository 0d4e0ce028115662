package dev.audioengine.gpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Which GEMM path runs when the library is present, absent or switched off, and what the backend says about it. */
class GemmChoiceTest {

    @Test
    void aPresentLibraryIsUsedAndNamed() {
        FakeBlas blas = new FakeBlas();
        GemmChoice c = GemmChoice.select("hip.hipblaslt", "on", "hipBLASLt", () -> blas);

        assertThat(c.blas()).isSameAs(blas);
        assertThat(c.describe()).isEqualTo("fakeBLAS /opt/fake/libfakeblas.so.1");
    }

    @Test
    void anAbsentLibraryLeavesTheEnginesKernelsAndSaysWhy() {
        GemmChoice c = GemmChoice.select("hip.hipblaslt", "on", "hipBLASLt", () -> {
            throw new IllegalStateException(
                    "hipBLASLt not found (tried libhipblaslt.so.1, libhipblaslt.so.0 in /opt/rocm/lib)");
        });

        assertThat(c.blas()).isNull();
        assertThat(c.describe())
                .isEqualTo(
                        "engine GEMM kernels (hipBLASLt not found (tried libhipblaslt.so.1, libhipblaslt.so.0 in /opt/rocm/lib))");
    }

    @Test
    void switchedOffTheLibraryIsNotEvenLoaded() {
        GemmChoice c = GemmChoice.select("hip.hipblaslt", " OFF ", "hipBLASLt", () -> {
            throw new AssertionError("loaded although switched off");
        });

        assertThat(c.blas()).isNull();
        assertThat(c.describe()).isEqualTo("engine GEMM kernels (hipBLASLt switched off: hip.hipblaslt=off)");
    }

    @Test
    void anotherValueIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> GemmChoice.select("hip.hipblaslt", "maybe", "hipBLASLt", FakeBlas::new))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hip.hipblaslt must be on or off, got 'maybe'");
    }
}
