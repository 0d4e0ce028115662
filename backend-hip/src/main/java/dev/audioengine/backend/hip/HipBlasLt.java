package dev.audioengine.backend.hip;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.gpu.gemm.GpuBlas;
import dev.audioengine.gpu.gemm.LtMatmul;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * hipBLASLt (libhipblaslt) as the ROCm backend's {@link GpuBlas}. Its API mirrors cuBLASLt entry
 * point for entry point, so the flow is {@link LtMatmul}'s; this class holds where the library lives
 * and hipBLASLt's own enum values (hipblaslt.h and hipblas-common.h of ROCm 6 and 7, which take
 * hipDataType; ROCm 5's hipBLASLt, with its own datatype enum, is not searched for).
 */
final class HipBlasLt {
    static final List<String> SONAMES = List.of("libhipblaslt.so.1", "libhipblaslt.so.0");

    // hipDataType (library_types.h, the same values as cudaDataType_t)
    static final int HIP_R_32F = 0, HIP_R_16F = 2, HIP_R_16BF = 14;
    // hipblasComputeType_t (hipblas-common.h)
    static final int HIPBLAS_COMPUTE_32F = 2, HIPBLAS_COMPUTE_32F_FAST_TF32 = 6;
    // hipblasOperation_t
    static final int HIPBLAS_OP_N = 111, HIPBLAS_OP_T = 112;
    // hipblasLtMatmulDescAttributes_t
    static final int DESC_TRANSA = 0, DESC_TRANSB = 1;
    // hipblasLtMatrixLayoutAttribute_t
    static final int LAYOUT_BATCH_COUNT = 0, LAYOUT_STRIDED_BATCH_OFFSET = 1;
    // hipblasLtMatmulPreferenceAttributes_t (hipBLASLt has no alignment preferences)
    static final int PREF_MAX_WORKSPACE_BYTES = 1;

    /** hipblasLtMatmulHeuristicResult_t: algo {uint8_t data[16]; size_t max_workspace_bytes}, workspaceSize, state, wavesCount, int reserved[4]. */
    static final StructLayout HEURISTIC_RESULT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("algoData"),
            JAVA_LONG.withName("algoMaxWorkspaceBytes"),
            JAVA_LONG.withName("workspaceSize"),
            JAVA_INT.withName("state"),
            JAVA_FLOAT.withName("wavesCount"),
            MemoryLayout.sequenceLayout(4, JAVA_INT).withName("reserved"));

    static final LtMatmul.Constants CONSTANTS = new LtMatmul.Constants(
            HIP_R_32F,
            HIP_R_16F,
            HIP_R_16BF,
            HIPBLAS_COMPUTE_32F,
            HIPBLAS_COMPUTE_32F_FAST_TF32,
            HIPBLAS_OP_N,
            HIPBLAS_OP_T,
            DESC_TRANSA,
            DESC_TRANSB,
            LAYOUT_BATCH_COUNT,
            LAYOUT_STRIDED_BATCH_OFFSET,
            PREF_MAX_WORKSPACE_BYTES,
            null,
            HEURISTIC_RESULT.byteSize());

    private HipBlasLt() {}

    /** Loads libhipblaslt and creates a handle; throws IllegalStateException listing every name and folder tried. */
    static GpuBlas load(HipApi api, List<Path> folders) {
        NativeLibrary lib = NativeLibrary.find(SONAMES, folders, "hipblasLtCreate");
        if (!lib.found()) throw new IllegalStateException("hipBLASLt not found (" + lib.searchReport() + ")");
        return new LtMatmul(
                "hipBLASLt",
                lib.location(),
                "hipblasLt",
                "hipblasStatus_t",
                CONSTANTS,
                (name, args) -> HipRuntime.bind(
                        lib.symbols(), lib.location(), name, "it is not hipBLASLt of ROCm 6 or later", args),
                () -> api.allocWorkspace(LtMatmul.WORKSPACE_BYTES),
                api::freeWorkspace);
    }
}
