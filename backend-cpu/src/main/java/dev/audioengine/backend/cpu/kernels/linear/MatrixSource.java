package dev.audioengine.backend.cpu.kernels.linear;

/**
 * A read-only matrix that the GEMM packs from: {@code rows x cols} values of any storage
 * (strided F32, half floats, quantized blocks, an implicit im2col), read one row span at a time
 * as floats. Row spans of quantized sources start on a 32-value block boundary, which the
 * GEMM guarantees by slicing k in multiples of 32.
 */
public interface MatrixSource {
    int rows();

    int cols();

    /** Writes values [k0, k0 + len) of row {@code r} to {@code dst[off..]}. */
    void readRow(int r, int k0, int len, float[] dst, int off);

    /**
     * Packs rows [r0, r0 + rows) over columns [k0, k0 + kc) k-major for the GEMM:
     * dst[off + kk * width + r] = this[r0 + r, k0 + kk], zero for rows <= r < width. The default
     * goes row by row through {@code row} (scratch of at least kc floats, and of rows · kc for
     * the GEMM's A panels); sources stored column by column override it to copy contiguous runs
     * instead, row-major F32 to transpose through vector gathers.
     */
    default void packPanel(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] row) {
        for (int r = 0; r < rows; r++) {
            readRow(r0 + r, k0, kc, row, 0);
            for (int kk = 0, at = off + r; kk < kc; kk++, at += width) dst[at] = row[kk];
        }
        if (rows < width) {
            for (int kk = 0; kk < kc; kk++)
                java.util.Arrays.fill(dst, off + kk * width + rows, off + (kk + 1) * width, 0f);
        }
    }
}
