package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.tensor.DType;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A matrix inside a kernel tensor: F32, F16 and BF16 through any element strides; Q8_0 and Q4_0
 * as contiguous rows decoded block by block (no dequantized copy of the whole weight exists).
 * Unit-stride rows decode with vector widening conversions where the float vector has at least
 * 8 lanes (so the matching byte and short vectors exist); elsewhere scalar loops do the same.
 */
final class TensorMatrix implements MatrixSource {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final int L = F.length();
    private static final boolean WIDE = L >= 8;
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, F.vectorShape());
    private static final VectorSpecies<Short> H = WIDE ? VectorSpecies.of(short.class, VectorShape.forBitSize(L * 16)) : null;
    private static final VectorSpecies<Byte> B = WIDE ? VectorSpecies.of(byte.class, VectorShape.forBitSize(L * 8)) : null;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
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

    /** Dispatches to one small method per dtype, so each stays small enough for the JIT to inline its vector code. */
    @Override
    public void readRow(int r, int k0, int len, float[] dst, int off) {
        switch (dtype) {
            case F32 -> readF32(r, k0, len, dst, off);
            case F16 -> readF16(r, k0, len, dst, off);
            case BF16 -> readBf16(r, k0, len, dst, off);
            case Q8_0 -> readQ8(r, k0, len, dst, off);
            case Q4_0 -> readQ4(r, k0, len, dst, off);
            default -> throw new IllegalStateException("no float matrix view of " + dtype);
        }
    }

    private void readF32(int r, int k0, int len, float[] dst, int off) {
        long at = base + (r * rowStride + k0 * colStride) * 4;
        if (colStride == 1) {
            MemorySegment.copy(seg, CpuTensor.F32, at, dst, off, len);
        } else {
            for (int i = 0; i < len; i++) dst[off + i] = seg.get(CpuTensor.F32, at + i * colStride * 4);
        }
    }

    private void readF16(int r, int k0, int len, float[] dst, int off) {
        long at = base + (r * rowStride + k0 * colStride) * 2;
        int i = 0;
        if (WIDE && colStride == 1) {
            for (int upper = len - L; i <= upper; i += L) f16Vector(at + i * 2L).intoArray(dst, off + i);
        }
        for (; i < len; i++) dst[off + i] = Float.float16ToFloat(seg.get(CpuTensor.I16, at + i * colStride * 2));
    }

    private void readBf16(int r, int k0, int len, float[] dst, int off) {
        long at = base + (r * rowStride + k0 * colStride) * 2;
        int i = 0;
        if (WIDE && colStride == 1) {
            for (int upper = len - L; i <= upper; i += L) {
                widen(at + i * 2L).lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().intoArray(dst, off + i);
            }
        }
        for (; i < len; i++) dst[off + i] = Float.intBitsToFloat((seg.get(CpuTensor.I16, at + i * colStride * 2) & 0xffff) << 16);
    }

    private void readQ8(int r, int k0, int len, float[] dst, int off) {
        long at = base + (long) r * (cols / 32) * 34 + (k0 / 32) * 34L;
        for (int b = 0; b < len; b += 32, at += 34) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
            int n = Math.min(32, len - b), i = 0;
            if (WIDE && n == 32) {
                for (; i < 32; i += L) {
                    ((FloatVector) ByteVector.fromMemorySegment(B, seg, at + 2 + i, NATIVE).convertShape(VectorOperators.B2F, F, 0))
                            .mul(d).intoArray(dst, off + b + i);
                }
            }
            for (; i < n; i++) dst[off + b + i] = seg.get(ValueLayout.JAVA_BYTE, at + 2 + i) * d;
        }
    }

    private void readQ4(int r, int k0, int len, float[] dst, int off) {
        long at = base + (long) r * (cols / 32) * 18 + (k0 / 32) * 18L;
        for (int b = 0; b < len; b += 32, at += 18) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
            int n = Math.min(32, len - b);
            if (WIDE && n == 32) {
                for (int i = 0; i < 16; i += L) { // low nibbles are elements 0..15, high nibbles 16..31
                    ByteVector q = ByteVector.fromMemorySegment(B, seg, at + 2 + i, NATIVE);
                    ByteVector lo = q.and((byte) 0x0f).sub((byte) 8);
                    ByteVector hi = q.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0f).sub((byte) 8);
                    ((FloatVector) lo.convertShape(VectorOperators.B2F, F, 0)).mul(d).intoArray(dst, off + b + i);
                    ((FloatVector) hi.convertShape(VectorOperators.B2F, F, 0)).mul(d).intoArray(dst, off + b + 16 + i);
                }
                continue;
            }
            for (int i = 0; i < 16; i++) {
                int q = seg.get(ValueLayout.JAVA_BYTE, at + 2 + i) & 0xff;
                if (i < n) dst[off + b + i] = ((q & 0x0f) - 8) * d;
                if (i + 16 < n) dst[off + b + i + 16] = ((q >>> 4) - 8) * d;
            }
        }
    }

    /** Column-major F32 (unit stride down a column) copies each column's run of rows in one go. */
    @Override
    public void packPanel(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] row) {
        if (dtype != DType.F32 || rowStride != 1 || colStride == 1 || rows < 2) {
            MatrixSource.super.packPanel(r0, rows, k0, kc, dst, off, width, row);
            return;
        }
        for (int kk = 0; kk < kc; kk++) {
            int at = off + kk * width;
            MemorySegment.copy(seg, CpuTensor.F32, base + ((k0 + kk) * colStride + r0) * 4, dst, at, rows);
            if (rows < width) java.util.Arrays.fill(dst, at + rows, at + width, 0f);
        }
    }

    /** L half floats at byte offset {@code at}, widened exactly (subnormals, infinities and NaN included). */
    private FloatVector f16Vector(long at) {
        IntVector h = widen(at);
        // exponent and mantissa moved into float position: off by 2^112 for finite values (also subnormals)
        FloatVector magnitude = h.and(0x7fff).lanewise(VectorOperators.LSHL, 13).reinterpretAsFloats().mul(0x1.0p112f);
        VectorMask<Integer> special = h.and(0x7c00).eq(0x7c00); // infinity or NaN: exponent becomes all ones
        IntVector bits = magnitude.reinterpretAsInts()
                .blend(h.and(0x3ff).lanewise(VectorOperators.LSHL, 13).or(0x7f800000), special);
        return bits.or(h.and(0x8000).lanewise(VectorOperators.LSHL, 16)).reinterpretAsFloats();
    }

    /** L 16-bit values at byte offset {@code at}, sign-extended to ints. */
    private IntVector widen(long at) {
        return (IntVector) ShortVector.fromMemorySegment(H, seg, at, NATIVE).convertShape(VectorOperators.S2I, I, 0);
    }

    /** True when rows are unit-stride F32, so a caller may read them straight from {@link #segment()}. */
    boolean denseF32() { return dtype == DType.F32 && colStride == 1; }

    MemorySegment segment() { return seg; }

    /** Byte offset of element (r, 0). */
    long rowAddress(int r) { return base + r * rowStride * 4; }
}
