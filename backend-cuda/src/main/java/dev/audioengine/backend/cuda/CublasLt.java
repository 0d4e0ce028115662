package dev.audioengine.backend.cuda;

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
 * cuBLASLt (libcublasLt) as the CUDA backend's {@link GpuBlas}: column-major GEMM with F32
 * accumulation for F32 (TF32 optional), F16 and BF16 inputs, strided batches, one plan per shape.
 * The flow is {@link LtMatmul}'s; this class holds where the library lives and cuBLASLt's enum values.
 */
final class CublasLt {
    static final List<String> SONAMES = List.of("libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so");
    static final List<Path> FOLDERS = Nvrtc.FOLDERS;

    // library_types.h cudaDataType_t
    static final int CUDA_R_32F = 0, CUDA_R_16F = 2, CUDA_R_16BF = 14;
    // cublasComputeType_t
    static final int COMPUTE_32F = 68, COMPUTE_32F_FAST_TF32 = 77;
    // cublasOperation_t
    static final int OP_N = 0, OP_T = 1;
    // cublasLtMatmulDescAttributes_t
    static final int DESC_TRANSA = 3, DESC_TRANSB = 4;
    // cublasLtMatrixLayoutAttribute_t
    static final int LAYOUT_BATCH_COUNT = 5, LAYOUT_STRIDED_BATCH_OFFSET = 6;
    // cublasLtMatmulPreferenceAttributes_t
    static final int PREF_MAX_WORKSPACE_BYTES = 1,
            PREF_MIN_ALIGNMENT_A = 5,
            PREF_MIN_ALIGNMENT_B = 6,
            PREF_MIN_ALIGNMENT_C = 7,
            PREF_MIN_ALIGNMENT_D = 8;

    /** cublasLtMatmulHeuristicResult_t: the 64-byte algo, workspaceSize, state, wavesCount, int reserved[4]. */
    static final StructLayout HEURISTIC_RESULT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(8, JAVA_LONG).withName("algo"),
            JAVA_LONG.withName("workspaceSize"),
            JAVA_INT.withName("state"),
            JAVA_FLOAT.withName("wavesCount"),
            MemoryLayout.sequenceLayout(4, JAVA_INT).withName("reserved"));

    static final LtMatmul.Constants CONSTANTS = new LtMatmul.Constants(
            CUDA_R_32F,
            CUDA_R_16F,
            CUDA_R_16BF,
            COMPUTE_32F,
            COMPUTE_32F_FAST_TF32,
            OP_N,
            OP_T,
            DESC_TRANSA,
            DESC_TRANSB,
            LAYOUT_BATCH_COUNT,
            LAYOUT_STRIDED_BATCH_OFFSET,
            PREF_MAX_WORKSPACE_BYTES,
            new int[] {PREF_MIN_ALIGNMENT_A, PREF_MIN_ALIGNMENT_B, PREF_MIN_ALIGNMENT_C, PREF_MIN_ALIGNMENT_D},
            HEURISTIC_RESULT.byteSize());

    private CublasLt() {}

    /** Loads libcublasLt and creates a handle; throws IllegalStateException listing every name and folder tried. */
    static GpuBlas load(DriverApi api) {
        NativeLibrary lib = NativeLibrary.find(SONAMES, FOLDERS, "cublasLtCreate");
        if (!lib.found()) {
            throw new IllegalStateException(
                    "cuBLASLt not found (" + lib.searchReport() + "); install the CUDA toolkit's"
                            + " libcublas (libcublasLt) or put its folder on LD_LIBRARY_PATH");
        }
        return new LtMatmul(
                "cuBLASLt",
                lib.location(),
                "cublasLt",
                "cublasStatus_t",
                CONSTANTS,
                (name, args) -> Downcalls.bind(lib.symbols(), lib.location(), name, args),
                () -> workspace(api),
                api::memFree);
    }

    private static long workspace(DriverApi api) {
        long[] out = new long[1];
        int r = api.memAlloc(LtMatmul.WORKSPACE_BYTES, out);
        api.driver().check(r, "cuMemAlloc_v2 (cuBLASLt workspace, " + LtMatmul.WORKSPACE_BYTES + " bytes)");
        return out[0];
    }
}
