package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.tensor.DType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A matrix inside a kernel tensor: F32, F16 and BF16 through any element strides; Q8_0 and Q4_0
 * as contiguous rows decoded block by block (no dequantized copy of the whole weight exists).
 */
final class TensorMatrix implements MatrixSource {
    private final MemorySegment seg;
    private final DType dtype;
    private final long base; // byte offset of element (0, 0)
    private final int rows, cols;
    private final long rowStride, colStride; // elements (plain types); ignored for blocks

    /** Rows {@code rowStride} and columns {@code colStride} elements apart from element offset {@code elementOffset}. */
    TensorMatrix(CpuTensor t, long elementOffset, int rows, int cols, long rowStride, long colStride) {
        this.seg = t.segment();
        this.dtype = t.dtype();
        this.rows = rows;
        this.cols = cols;
        this.rowStride = rowStride;
        this.colStride = colStride;
        if (dtype.isQuantized()) {
            if (cols % 32 != 0 || (cols > 1 && colStride != 1) || (rows > 1 && rowStride != cols) || elementOffset % 32 != 0) {
                throw new IllegalArgumentException(dtype + " matrix rows must be contiguous whole blocks: cols " + cols
                        + ", strides " + rowStride + "/" + colStride + ", offset " + elementOffset);
            }
            this.base = t.base() + dtype.bytesFor(elementOffset);
        } else {
            this.base = t.base() + elementOffset * dtype.blockBytes();
        }
    }

    @Override public int rows() { return rows; }

    @Override public int cols() { return cols; }

    @Override public boolean blockAligned() { return dtype.isQuantized(); }

    @Override
    public void readRow(int r, int k0, int len, float[] dst, int off) {
        switch (dtype) {
            case F32 -> {
                long at = base + (r * rowStride + k0 * colStride) * 4;
                if (colStride == 1) {
                    MemorySegment.copy(seg, CpuTensor.F32, at, dst, off, len);
                } else {
                    for (int i = 0; i < len; i++) dst[off + i] = seg.get(CpuTensor.F32, at + i * colStride * 4);
                }
            }
            case F16 -> {
                long at = base + (r * rowStride + k0 * colStride) * 2;
                for (int i = 0; i < len; i++) dst[off + i] = Float.float16ToFloat(seg.get(CpuTensor.I16, at + i * colStride * 2));
            }
            case BF16 -> {
                long at = base + (r * rowStride + k0 * colStride) * 2;
                for (int i = 0; i < len; i++) {
                    dst[off + i] = Float.intBitsToFloat((seg.get(CpuTensor.I16, at + i * colStride * 2) & 0xffff) << 16);
                }
            }
            case Q8_0 -> {
                long at = base + (long) r * (cols / 32) * 34 + (k0 / 32) * 34L;
                for (int b = 0; b < len; b += 32, at += 34) {
                    float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
                    int n = Math.min(32, len - b);
                    for (int i = 0; i < n; i++) dst[off + b + i] = seg.get(ValueLayout.JAVA_BYTE, at + 2 + i) * d;
                }
            }
            case Q4_0 -> {
                long at = base + (long) r * (cols / 32) * 18 + (k0 / 32) * 18L;
                for (int b = 0; b < len; b += 32, at += 18) {
                    float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
                    int n = Math.min(32, len - b);
                    for (int i = 0; i < 16; i++) {
                        int q = seg.get(ValueLayout.JAVA_BYTE, at + 2 + i) & 0xff;
                        if (i < n) dst[off + b + i] = ((q & 0x0f) - 8) * d;
                        if (i + 16 < n) dst[off + b + i + 16] = ((q >>> 4) - 8) * d;
                    }
                }
            }
            default -> throw new IllegalStateException("no float matrix view of " + dtype);
        }
    }
}
