package dev.audioengine.backend.hip;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemoryLayout.PathElement;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * hipBLASLt's structs and enum values as hipblaslt.h and hipblas-common.h define them for ROCm 6.0 to
 * 7.2 on the AMD platform (no hipBLASLt here to call), and the library-missing path.
 */
class HipBlasLtLayoutTest {

    @Test
    void heuristicResultMatchesHipblasltH() {
        // hipblasLtMatmulAlgo_t { uint8_t data[16]; size_t max_workspace_bytes; }
        assertThat(HipBlasLt.ALGO.byteSize()).isEqualTo(24);
        // { hipblasLtMatmulAlgo_t algo; size_t workspaceSize; hipblasStatus_t state; float wavesCount; int reserved[4]; }
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteSize()).isEqualTo(56);
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("workspaceSize"))).isEqualTo(24);
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("state"))).isEqualTo(32);
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("wavesCount"))).isEqualTo(36);
        assertThat(HipBlasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("reserved"))).isEqualTo(40);
    }

    @Test
    void enumValuesAreAmdsNotCudas() {
        // hipblasOperation_t takes rocBLAS's values; cuBLAS's are 0 and 1
        assertThat(HipBlasLt.OP_N).isEqualTo(111);
        assertThat(HipBlasLt.OP_T).isEqualTo(112);
        // hipblasComputeType_t HIPBLAS_COMPUTE_32F; cuBLAS's CUBLAS_COMPUTE_32F is 68
        assertThat(HipBlasLt.HIPBLAS_COMPUTE_32F).isEqualTo(2);
        // hipblasLtMatmulDescAttributes_t starts at TRANSA = 0 (cuBLASLt's TRANSA is 3)
        assertThat(List.of(HipBlasLt.DESC_TRANSA, HipBlasLt.DESC_TRANSB)).containsExactly(0, 1);
        assertThat(List.of(HipBlasLt.LAYOUT_BATCH_COUNT, HipBlasLt.LAYOUT_STRIDED_BATCH_OFFSET)).containsExactly(0, 1);
        assertThat(HipBlasLt.PREF_MAX_WORKSPACE_BYTES).isEqualTo(1);
        assertThat(List.of(HipBlasLt.HIP_R_32F, HipBlasLt.HIP_R_16F, HipBlasLt.HIP_R_16BF)).containsExactly(0, 2, 14);
    }

    @Test
    void switchingHipblasltOnWithoutTheLibraryFailsWithWhatWasTried(@TempDir Path empty) {
        assumeTrue(HipBlasLt.find(List.of(empty)) == null, "hipBLASLt is installed on this machine");
        assertThatThrownBy(() -> HipBlasLt.load(null, List.of(empty)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hip.hipblaslt=on but hipBLASLt was not found (tried libhipblaslt.so.1, libhipblaslt.so.0")
                .hasMessageContaining(empty.toString())
                .hasMessageContaining("leave hip.hipblaslt off");
    }

    @Test
    void theGemmPathIsNamedForTheProbeReasonAndTheOpenLog() {
        assertThat(HipBackend.gemmPath(null, false)).isEqualTo("engine GEMM kernels (ae_matmul, ae_matvec_q); hipBLASLt not found");
        assertThat(HipBackend.gemmPath("/opt/rocm/lib/libhipblaslt.so.1", false))
                .endsWith("hipBLASLt found at /opt/rocm/lib/libhipblaslt.so.1, used with --option hip.hipblaslt=on");
        assertThat(HipBackend.gemmPath("/opt/rocm/lib/libhipblaslt.so.1", true)).startsWith("hipBLASLt (/opt/rocm/lib/libhipblaslt.so.1)");
    }
}
