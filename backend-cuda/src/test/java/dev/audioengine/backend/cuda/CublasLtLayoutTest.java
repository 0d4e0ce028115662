package dev.audioengine.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemoryLayout.PathElement;
import org.junit.jupiter.api.Test;

/** The cuBLASLt struct the shared matmul flow allocates per plan, checked without a GPU. */
class CublasLtLayoutTest {

    @Test
    void heuristicResultMatchesCublasLtH() {
        // cublasLtMatmulHeuristicResult_t { cublasLtMatmulAlgo_t algo (8 x uint64); size_t workspaceSize;
        //   cublasStatus_t state; float wavesCount; int reserved[4]; }
        assertThat(CublasLt.HEURISTIC_RESULT.byteSize()).isEqualTo(96);
        assertThat(CublasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("workspaceSize")))
                .isEqualTo(64);
        assertThat(CublasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("state")))
                .isEqualTo(72);
        assertThat(CublasLt.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("wavesCount")))
                .isEqualTo(76);
        assertThat(CublasLt.CONSTANTS.heuristicResultBytes()).isEqualTo(96);
    }
}
