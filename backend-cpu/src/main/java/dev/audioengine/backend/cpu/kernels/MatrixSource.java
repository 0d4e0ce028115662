package dev.audioengine.backend.cpu.kernels;

/**
 * A read-only matrix that the GEMM packs from: {@code rows x cols} values of any storage
 * (strided F32, half floats, quantized blocks, an implicit im2col), read one row span at a time
 * as floats. Row spans of quantized sources start on a block boundary.
 */
interface MatrixSource {
    int rows();

    int cols();

    /** Writes values [k0, k0 + len) of row {@code r} to {@code dst[off..]}. */
    void readRow(int r, int k0, int len, float[] dst, int off);

    /** True when {@code readRow} needs {@code k0} to be a multiple of 32 (block-quantized rows). */
    default boolean blockAligned() { return false; }
}
