package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A tensor as a kernel sees it: a segment, the byte offset of its first element, and shape
 * and element strides padded on the left to rank 4 (padded axes have size 1 and stride 0).
 * Outputs are always contiguous; inputs may be any strided view.
 */
public record CpuTensor(MemorySegment segment, long base, DType dtype, int rank, long[] dims, long[] strides) {
    public static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    public static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    public static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    public static CpuTensor of(Tensor t, MemorySegment segment, long byteOffset) {
        long[] d = new long[4], s = new long[4];
        int pad = 4 - t.rank();
        for (int i = 0; i < 4; i++) {
            d[i] = i < pad ? 1 : t.dim(i - pad);
            s[i] = i < pad ? 0 : t.stride(i - pad);
        }
        return new CpuTensor(segment, byteOffset, t.dtype(), t.rank(), d, s);
    }

    /** Size of logical axis {@code axis} of the original rank (negative counts from the end). */
    public long dim(int axis) {
        return dims[pad(axis)];
    }

    public long stride(int axis) {
        return strides[pad(axis)];
    }

    private int pad(int axis) {
        int a = axis < 0 ? axis + rank : axis;
        if (a < 0 || a >= rank) throw new IllegalArgumentException("axis " + axis + " of rank " + rank);
        return a + 4 - rank;
    }

    public long elements() {
        return dims[0] * dims[1] * dims[2] * dims[3];
    }

    public boolean isContiguous() {
        long expect = 1;
        for (int i = 3; i >= 0; i--) {
            if (dims[i] != 1 && strides[i] != expect) return false;
            expect *= dims[i];
        }
        return true;
    }

    /** Element offset of (a, b, c, d) in the padded rank-4 index space. */
    public long offset(long a, long b, long c, long d) {
        return a * strides[0] + b * strides[1] + c * strides[2] + d * strides[3];
    }

    /** Element offset of the i-th element in row-major order (slow path: unravels the index). */
    public long offsetOfLinear(long i) {
        long d = i % dims[3];
        i /= dims[3];
        long c = i % dims[2];
        i /= dims[2];
        long b = i % dims[1];
        long a = i / dims[1];
        return offset(a, b, c, d);
    }

    /** Reads element at element offset {@code off} as a float, converting from F32/F16/BF16/I32/I8. */
    public float getFloat(long off) {
        return switch (dtype) {
            case F32 -> segment.get(F32, base + off * 4);
            case F16 -> HalfFloats.f16ToFloat(segment.get(I16, base + off * 2));
            case BF16 -> HalfFloats.bf16ToFloat(segment.get(I16, base + off * 2));
            case I32 -> segment.get(I32, base + off * 4);
            case I8 -> segment.get(ValueLayout.JAVA_BYTE, base + off);
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K ->
                throw new IllegalStateException("element access into " + dtype + " blocks; dequantize rows instead");
        };
    }

    public void setFloat(long off, float v) {
        segment.set(F32, base + off * 4, v);
    }

    public int getInt(long off) {
        return segment.get(I32, base + off * 4);
    }

    public void setInt(long off, int v) {
        segment.set(I32, base + off * 4, v);
    }

    /** All elements in row-major order as floats (dequantizing block types); allocates. */
    public float[] toFloatArray() {
        int n = Math.toIntExact(elements());
        float[] out = new float[n];
        if (dtype == DType.F32 && isContiguous()) {
            MemorySegment.copy(segment, F32, base, out, 0, n);
        } else if (dtype.isQuantized()) {
            int row = (int) dims[3];
            for (int r = 0; r < n / Math.max(1, row); r++) {
                long a = r / (dims[1] * dims[2]), b = (r / dims[2]) % dims[1], c = r % dims[2];
                long byteOff = base + dtype.bytesFor(offset(a, b, c, 0));
                BlockQuantization.dequantize(dtype, segment, byteOff, out, r * row, row);
            }
        } else {
            for (int i = 0; i < n; i++) out[i] = getFloat(offsetOfLinear(i));
        }
        return out;
    }
}
