package dev.audioengine.backend.hip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.gpu.gemm.GemmChoice;
import dev.audioengine.gpu.gemm.GpuBlas;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Which GEMM path a ROCm device gets: hipBLASLt, else rocBLAS, else the engine's kernels; and rocBLAS's argument mapping. */
class HipGemmChoiceTest {
    private final List<String> loaded = new ArrayList<>();

    private record FakeBlas(String describe) implements GpuBlas {
        @Override
        public Plan plan(Shape s) {
            return null;
        }

        @Override
        public void run(Plan p, long a, long b, long d, MemorySegment stream, boolean accumulate) {}

        @Override
        public void close() {}
    }

    private Supplier<GpuBlas> present(String name) {
        return () -> {
            loaded.add(name);
            return new FakeBlas(name + " /opt/rocm/lib/lib" + name);
        };
    }

    private Supplier<GpuBlas> missing(String name) {
        return () -> {
            loaded.add(name);
            throw new IllegalStateException(name + " not found (tried lib" + name + ".so.1)");
        };
    }

    private static BackendConfig options(String... kv) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return new BackendConfig(0, m);
    }

    @Test
    void hipBlasLtFirstAndRocBlasNotEvenLoadedThen() {
        GemmChoice c = HipBackendProvider.gemm(options(), present("hipBLASLt"), present("rocBLAS"));
        assertThat(c.describe()).isEqualTo("hipBLASLt /opt/rocm/lib/libhipBLASLt");
        assertThat(loaded).containsExactly("hipBLASLt");
    }

    @Test
    void rocBlasWhenHipBlasLtIsMissingOrSwitchedOff() {
        assertThat(HipBackendProvider.gemm(options(), missing("hipBLASLt"), present("rocBLAS"))
                        .describe())
                .isEqualTo("rocBLAS /opt/rocm/lib/librocBLAS");
        loaded.clear();
        assertThat(HipBackendProvider.gemm(options("hip.hipblaslt", "off"), present("hipBLASLt"), present("rocBLAS"))
                        .describe())
                .startsWith("rocBLAS");
        assertThat(loaded).containsExactly("rocBLAS");
    }

    @Test
    void engineKernelsSayWhyNeitherLibraryIsUsed() {
        GemmChoice c = HipBackendProvider.gemm(options(), missing("hipBLASLt"), missing("rocBLAS"));
        assertThat(c.blas()).isNull();
        assertThat(c.describe())
                .isEqualTo(
                        "engine GEMM kernels (hipBLASLt not found (tried libhipBLASLt.so.1); rocBLAS not found (tried librocBLAS.so.1))");
        c = HipBackendProvider.gemm(
                options("hip.hipblaslt", "off", "hip.rocblas", "off"), present("hipBLASLt"), present("rocBLAS"));
        assertThat(c.describe())
                .isEqualTo(
                        "engine GEMM kernels (hipBLASLt switched off: hip.hipblaslt=off; rocBLAS switched off: hip.rocblas=off)");
        assertThatThrownBy(() -> HipBackendProvider.gemm(
                        options("hip.rocblas", "maybe"), missing("hipBLASLt"), present("rocBLAS")))
                .hasMessageContaining("hip.rocblas must be on or off");
    }

    @Test
    void rocBlasTakesF32AndHalfInputsWithSameOrF32OutputAndInt32Sizes() {
        GpuBlas.Shape f32 = shape(DType.F32, DType.F32, true, false, 5, 7, 9);
        RocBlas.RocPlan p = RocBlas.planFor(f32);
        assertThat(p).isNotNull();
        assertThat(p.transA()).isEqualTo(RocBlas.OPERATION_TRANSPOSE);
        assertThat(p.transB()).isEqualTo(RocBlas.OPERATION_NONE);
        assertThat(p.abType()).isEqualTo(151);
        assertThat(RocBlas.planFor(shape(DType.F16, DType.F16, false, false, 5, 7, 9))
                        .dType())
                .isEqualTo(150);
        assertThat(RocBlas.planFor(shape(DType.BF16, DType.F32, false, true, 5, 7, 9))
                        .abType())
                .isEqualTo(168);
        assertThat(RocBlas.planFor(shape(DType.F32, DType.F16, false, false, 5, 7, 9)))
                .as("F32 in, F16 out")
                .isNull();
        assertThat(RocBlas.planFor(shape(DType.F16, DType.BF16, false, false, 5, 7, 9)))
                .as("F16 in, BF16 out")
                .isNull();
        assertThat(RocBlas.planFor(shape(DType.F32, DType.F32, false, false, 1L << 31, 7, 9)))
                .as("m past rocblas_int")
                .isNull();
    }

    @Test
    void aMissingRocBlasNamesWhatWasTried() {
        assertThatThrownBy(() -> RocBlas.load(List.of(Path.of("/nonexistent/rocm/lib"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("rocBLAS not found (")
                .hasMessageContaining("librocblas.so.4");
    }

    private static GpuBlas.Shape shape(DType ab, DType d, boolean transA, boolean transB, long m, long n, long k) {
        return new GpuBlas.Shape(
                ab, d, false, transA, transB, m, n, k, transA ? k : m, transB ? n : k, m, 1, 0, 0, 0, 16, 16, 16);
    }
}
