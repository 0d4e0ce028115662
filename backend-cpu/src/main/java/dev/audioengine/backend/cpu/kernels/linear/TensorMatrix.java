package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * A matrix inside a kernel tensor: F32, F16 and BF16 through any element strides; the block types (Q8_0, Q4_0,
 * Q5_0, Q5_1, Q4_1, and the k-quants Q6_K, Q4_K, Q5_K, Q3_K, Q2_K in super-blocks of 256)
 * as contiguous rows decoded block by block (no dequantized copy of the whole weight exists).
 * Unit-stride rows decode with vector widening conversions where the float vector has at least
 * 8 lanes (so the matching byte and short vectors exist); elsewhere scalar loops do the same.
 */
public final class TensorMatrix implements MatrixSource {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final int L = F.length();
    private static final boolean WIDE = L >= 8;
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, F.vectorShape());
    private static final VectorSpecies<Short> H =
            WIDE ? VectorSpecies.of(short.class, VectorShape.forBitSize(L * 16)) : null;
    private static final VectorSpecies<Byte> B =
            WIDE ? VectorSpecies.of(byte.class, VectorShape.forBitSize(L * 8)) : null;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private final MemorySegment seg;
    private final DType dtype;
    private final long base; // byte offset of element (0, 0)
    private final int rows, cols;
    private final long rowStride, colStride; // elements (plain types); ignored for blocks

    /** Rows {@code rowStride} and columns {@code colStride} elements apart from element offset {@code elementOffset}. */
    public TensorMatrix(CpuTensor t, long elementOffset, int rows, int cols, long rowStride, long colStride) {
        this.seg = t.segment();
        this.dtype = t.dtype();
        this.rows = rows;
        this.cols = cols;
        this.rowStride = rowStride;
        this.colStride = colStride;
        if (dtype.isQuantized()) {
            int block = dtype.blockSize();
            if (cols % block != 0
                    || (cols > 1 && colStride != 1)
                    || (rows > 1 && rowStride != cols)
                    || elementOffset % block != 0) {
                throw new IllegalArgumentException(dtype + " matrix rows must be contiguous whole blocks: cols " + cols
                        + ", strides " + rowStride + "/" + colStride + ", offset " + elementOffset);
            }
            this.base = t.base() + dtype.bytesFor(elementOffset);
        } else {
            this.base = t.base() + elementOffset * dtype.blockBytes();
        }
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    /** Dispatches to one small method per dtype, so each stays small enough for the JIT to inline its vector code. */
    @Override
    public void readRow(int r, int k0, int len, float[] dst, int off) {
        switch (dtype) {
            case F32 -> readF32(r, k0, len, dst, off);
            case F16 -> readF16(r, k0, len, dst, off);
            case BF16 -> readBf16(r, k0, len, dst, off);
            case Q8_0 -> readQ8(r, k0, len, dst, off);
            case Q4_0 -> readQ4(r, k0, len, dst, off);
            case Q5_0, Q5_1, Q4_1 -> readBlocks(r, k0, len, dst, off);
            case Q6_K, Q4_K, Q5_K, Q3_K, Q2_K -> readSuperBlocks(r, k0, len, dst, off);
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
                widen(at + i * 2L)
                        .lanewise(VectorOperators.LSHL, 16)
                        .reinterpretAsFloats()
                        .intoArray(dst, off + i);
            }
        }
        for (; i < len; i++)
            dst[off + i] = Float.intBitsToFloat((seg.get(CpuTensor.I16, at + i * colStride * 2) & 0xffff) << 16);
    }

    private void readQ8(int r, int k0, int len, float[] dst, int off) {
        long at = base + (long) r * (cols / 32) * 34 + (k0 / 32) * 34L;
        for (int b = 0; b < len; b += 32, at += 34) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
            int n = Math.min(32, len - b), i = 0;
            if (WIDE && n == 32) {
                for (; i < 32; i += L) {
                    ((FloatVector) ByteVector.fromMemorySegment(B, seg, at + 2 + i, NATIVE)
                                    .convertShape(VectorOperators.B2F, F, 0))
                            .mul(d)
                            .intoArray(dst, off + b + i);
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
                    ByteVector hi =
                            q.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0f).sub((byte) 8);
                    ((FloatVector) lo.convertShape(VectorOperators.B2F, F, 0))
                            .mul(d)
                            .intoArray(dst, off + b + i);
                    ((FloatVector) hi.convertShape(VectorOperators.B2F, F, 0))
                            .mul(d)
                            .intoArray(dst, off + b + 16 + i);
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

    /** 0..31: lane shifts that pick element j's fifth bit out of a block's u32 (see readBlocks). */
    private static final int[] FIFTH_BIT =
            java.util.stream.IntStream.range(0, 32).toArray();

    /**
     * Q5_0, Q5_1 and Q4_1 rows decoded block by block, only the slice asked for (the kernels call this per row tile):
     * value = q · d + m, with m the block's minimum (Q5_1, Q4_1) or -16 · d (Q5_0, where (q - 16) · d is exact in one
     * fused rounding). Whole blocks decode with vectors: the nibbles as Q4_0's, the fifth bits (bit j of the block's
     * little-endian u32 for element j) shifted out of a broadcast word lane by lane. A part block at the end of
     * {@code len}, and narrow vectors, take {@link BlockQuantization}'s scalar decode.
     */
    private void readBlocks(int r, int k0, int len, float[] dst, int off) {
        int bytes = dtype.blockBytes();
        boolean withMin = dtype != DType.Q5_0, five = dtype != DType.Q4_1;
        long at = base + ((long) r * (cols / 32) + k0 / 32) * bytes;
        long nibbles = (withMin ? 4 : 2) + (five ? 4 : 0);
        for (int b = 0; b < len; b += 32, at += bytes) {
            if (!WIDE || len - b < 32) {
                float[] block = new float[32];
                BlockQuantization.dequantize(dtype, seg, at, block, 0, 32);
                System.arraycopy(block, 0, dst, off + b, Math.min(32, len - b));
                continue;
            }
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
            float m = withMin ? Float.float16ToFloat(seg.get(CpuTensor.I16, at + 2)) : -16 * d;
            int qh = five ? seg.get(CpuTensor.I32, at + (withMin ? 4 : 2)) : 0;
            for (int i = 0; i < 16; i += L) { // low nibbles are elements 0..15, high nibbles 16..31
                ByteVector q = ByteVector.fromMemorySegment(B, seg, at + nibbles + i, NATIVE);
                FloatVector lo = (FloatVector) q.and((byte) 0x0f).convertShape(VectorOperators.B2F, F, 0);
                FloatVector hi = (FloatVector)
                        q.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0f).convertShape(VectorOperators.B2F, F, 0);
                if (five) {
                    lo = lo.add(fifthBits(qh, i));
                    hi = hi.add(fifthBits(qh, 16 + i));
                }
                lo.fma(d, m).intoArray(dst, off + b + i);
                hi.fma(d, m).intoArray(dst, off + b + 16 + i);
            }
        }
    }

    /**
     * Q6_K, Q4_K and Q5_K rows decoded super-block by super-block with vectors (the kernel's own decode, the same as
     * {@link #dotQ6K} and {@link #dotQ45K} do in registers), only the slice asked for; k0 and len are whole
     * super-blocks (K is a multiple of 256 and the kernels' slices are multiples of 1024). Narrow vectors, Q3_K and
     * Q2_K (no vector decode of their own yet), and a part super-block should one be asked for, take
     * {@link BlockQuantization}'s scalar decode.
     */
    private void readSuperBlocks(int r, int k0, int len, float[] dst, int off) {
        int bytes = dtype.blockBytes();
        boolean five = dtype == DType.Q5_K;
        long at = base + ((long) r * (cols / 256) + k0 / 256) * bytes;
        for (int b = 0; b < len; b += 256, at += bytes) {
            int o = off + b;
            if (!WIDE || len - b < 256 || dtype == DType.Q3_K || dtype == DType.Q2_K) {
                // Q3_K and Q2_K rows (tall products only; their mat-vecs decode in registers): the shared scalar
                // decode, into scratch
                float[] block = new float[256];
                BlockQuantization.dequantize(dtype, seg, at, block, 0, 256);
                System.arraycopy(block, 0, dst, o, Math.min(256, len - b));
            } else if (dtype == DType.Q6_K) {
                float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at + 208));
                for (int h = 0; h < 2; h++) {
                    for (int l = 0; l < 32; l += L) {
                        ByteVector qa = bytes(at + 64 * h + l), qb = bytes(at + 64 * h + 32 + l);
                        ByteVector qh = bytes(at + 128 + 32 * h + l);
                        long sc = at + 192 + 8 * h + l / 16;
                        int x = o + 128 * h + l;
                        q6(qa.and((byte) 0x0f), qh.and((byte) 0x03).lanewise(VectorOperators.LSHL, 4), d, sc)
                                .intoArray(dst, x);
                        q6(qb.and((byte) 0x0f), qh.and((byte) 0x0c).lanewise(VectorOperators.LSHL, 2), d, sc + 2)
                                .intoArray(dst, x + 32);
                        q6(high(qa), qh.and((byte) 0x30), d, sc + 4).intoArray(dst, x + 64);
                        q6(high(qb), qh.lanewise(VectorOperators.LSHR, 2).and((byte) 0x30), d, sc + 6)
                                .intoArray(dst, x + 96);
                    }
                }
            } else {
                float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
                float dmin = Float.float16ToFloat(seg.get(CpuTensor.I16, at + 2));
                for (int p = 0; p < 4; p++) {
                    float s1 = d * BlockQuantization.scaleK4(seg, at + 4, 2 * p, false);
                    float m1 = -dmin * BlockQuantization.scaleK4(seg, at + 4, 2 * p, true);
                    float s2 = d * BlockQuantization.scaleK4(seg, at + 4, 2 * p + 1, false);
                    float m2 = -dmin * BlockQuantization.scaleK4(seg, at + 4, 2 * p + 1, true);
                    for (int l = 0; l < 32; l += L) {
                        ByteVector raw = bytes(at + (five ? 48 : 16) + 32 * p + l);
                        ByteVector lo = raw.and((byte) 0x0f), hi = high(raw);
                        if (five) {
                            ByteVector qh = bytes(at + 16 + l);
                            lo = fifth(lo, qh, 1 << (2 * p));
                            hi = fifth(hi, qh, 2 << (2 * p));
                        }
                        q45(lo, s1, m1).intoArray(dst, o + 64 * p + l);
                        q45(hi, s2, m2).intoArray(dst, o + 64 * p + 32 + l);
                    }
                }
            }
        }
    }

    private ByteVector bytes(long at) {
        return ByteVector.fromMemorySegment(B, seg, at, NATIVE);
    }

    /** The high nibbles of {@code v}'s bytes. */
    private static ByteVector high(ByteVector v) {
        return v.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0f);
    }

    /**
     * Q6_K weights from the four low bits and the two high bits already at bits 4-5: (q - 32) · d · the int8 scale at
     * byte {@code scaleAt} (L at most 16, so the L elements share one sub-block of 16).
     */
    private FloatVector q6(ByteVector low, ByteVector high, float d, long scaleAt) {
        float scale = d * seg.get(ValueLayout.JAVA_BYTE, scaleAt);
        return ((FloatVector) low.or(high).sub((byte) 32).convertShape(VectorOperators.B2F, F, 0)).mul(scale);
    }

    /** Q5_K: 16 added to the bytes of {@code q} whose {@code qh} byte has {@code bit} set (a compare, no shift). */
    private static ByteVector fifth(ByteVector q, ByteVector qh, int bit) {
        return q.add((byte) 16, qh.and((byte) bit).compare(VectorOperators.NE, (byte) 0));
    }

    /** Q4_K and Q5_K weights q · scale + min (min being -dmin · the sub-block's minimum). */
    private static FloatVector q45(ByteVector q, float scale, float min) {
        return ((FloatVector) q.convertShape(VectorOperators.B2F, F, 0)).fma(scale, min);
    }

    /**
     * {@link #dotQuantized} for Q6_K: each super-block decoded in registers, L weights of each of the four quarters of
     * a half at a time, as {@link #readSuperBlocks} decodes it (the sub-block's scale folded into the weights; the two
     * high bits moved to bits 4-5 by constant shifts), and multiplied into the running sums at once; no decoded row
     * goes through memory.
     */
    private void dotQ6K(int r, float[] a, int ao, int m, int k, float[] out, int j, int ld, float[] lanes) {
        for (int i = 0; i < m; i++) out[j + i * ld] = dotQ6K(r, a, ao + i * k, k, lanes);
    }

    /**
     * One activation row's dot with row r: one accumulator, and the decode written out here rather than through the
     * helpers {@link #readSuperBlocks} uses (a helper taking vectors that C2 does not inline boxes them, which ran this
     * at a quarter of the speed).
     */
    private float dotQ6K(int r, float[] a, int ao, int k, float[] lanes) {
        long at = base + (long) r * (cols / 256) * 210;
        FloatVector s = FloatVector.zero(F);
        for (int b = 0; b < k; b += 256, at += 210) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at + 208));
            for (int h = 0; h < 2; h++) {
                long sc = at + 192 + 8 * h;
                for (int l = 0; l < 32; l += L) {
                    ByteVector qa = ByteVector.fromMemorySegment(B, seg, at + 64 * h + l, NATIVE);
                    ByteVector qb = ByteVector.fromMemorySegment(B, seg, at + 64 * h + 32 + l, NATIVE);
                    ByteVector qh = ByteVector.fromMemorySegment(B, seg, at + 128 + 32 * h + l, NATIVE);
                    int x = ao + b + 128 * h + l, g = l / 16;
                    FloatVector w = (FloatVector) qa.and((byte) 0x0f)
                            .or(qh.and((byte) 0x03).lanewise(VectorOperators.LSHL, 4))
                            .sub((byte) 32)
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * seg.get(ValueLayout.JAVA_BYTE, sc + g)).fma(FloatVector.fromArray(F, a, x), s);
                    w = (FloatVector) qb.and((byte) 0x0f)
                            .or(qh.and((byte) 0x0c).lanewise(VectorOperators.LSHL, 2))
                            .sub((byte) 32)
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * seg.get(ValueLayout.JAVA_BYTE, sc + 2 + g))
                            .fma(FloatVector.fromArray(F, a, x + 32), s);
                    w = (FloatVector) qa.lanewise(VectorOperators.LSHR, 4)
                            .and((byte) 0x0f)
                            .or(qh.and((byte) 0x30))
                            .sub((byte) 32)
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * seg.get(ValueLayout.JAVA_BYTE, sc + 4 + g))
                            .fma(FloatVector.fromArray(F, a, x + 64), s);
                    w = (FloatVector) qb.lanewise(VectorOperators.LSHR, 4)
                            .and((byte) 0x0f)
                            .or(qh.lanewise(VectorOperators.LSHR, 2).and((byte) 0x30))
                            .sub((byte) 32)
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * seg.get(ValueLayout.JAVA_BYTE, sc + 6 + g))
                            .fma(FloatVector.fromArray(F, a, x + 96), s);
                }
            }
        }
        s.intoArray(lanes, 0);
        return LaneSum.of(lanes, 0);
    }

    /**
     * {@link #dotQuantized} for Q4_K and Q5_K: each pair of sub-blocks (the low and high nibbles of 32 bytes) decoded in
     * registers, q · d · scale - dmin · minimum, the fifth bits of Q5_K added where a compare against {@code qh} finds
     * them, as {@link #readSuperBlocks} decodes it, and multiplied into the running sums at once.
     */
    private void dotQ45K(int r, float[] a, int ao, int m, int k, float[] out, int j, int ld, float[] lanes) {
        for (int i = 0; i < m; i++) out[j + i * ld] = dotQ45K(r, a, ao + i * k, k, lanes);
    }

    /** One activation row's dot with row r (one accumulator, the decode written out, as in the Q6_K dot). */
    private float dotQ45K(int r, float[] a, int ao, int k, float[] lanes) {
        boolean five = dtype == DType.Q5_K;
        int bytes = dtype.blockBytes();
        long at = base + (long) r * (cols / 256) * bytes;
        FloatVector s = FloatVector.zero(F);
        for (int b = 0; b < k; b += 256, at += bytes) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
            float dmin = Float.float16ToFloat(seg.get(CpuTensor.I16, at + 2));
            for (int p = 0; p < 4; p++) {
                float sc1 = d * BlockQuantization.scaleK4(seg, at + 4, 2 * p, false);
                float mn1 = -dmin * BlockQuantization.scaleK4(seg, at + 4, 2 * p, true);
                float sc2 = d * BlockQuantization.scaleK4(seg, at + 4, 2 * p + 1, false);
                float mn2 = -dmin * BlockQuantization.scaleK4(seg, at + 4, 2 * p + 1, true);
                byte bit1 = (byte) (1 << (2 * p)), bit2 = (byte) (2 << (2 * p));
                for (int l = 0; l < 32; l += L) {
                    ByteVector raw = ByteVector.fromMemorySegment(B, seg, at + (five ? 48 : 16) + 32 * p + l, NATIVE);
                    ByteVector lo = raw.and((byte) 0x0f),
                            hi = raw.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0f);
                    if (five) {
                        ByteVector qh = ByteVector.fromMemorySegment(B, seg, at + 16 + l, NATIVE);
                        lo = lo.add((byte) 16, qh.and(bit1).compare(VectorOperators.NE, (byte) 0));
                        hi = hi.add((byte) 16, qh.and(bit2).compare(VectorOperators.NE, (byte) 0));
                    }
                    int x = ao + b + 64 * p + l;
                    FloatVector w = ((FloatVector) lo.convertShape(VectorOperators.B2F, F, 0)).fma(sc1, mn1);
                    s = w.fma(FloatVector.fromArray(F, a, x), s);
                    w = ((FloatVector) hi.convertShape(VectorOperators.B2F, F, 0)).fma(sc2, mn2);
                    s = w.fma(FloatVector.fromArray(F, a, x + 32), s);
                }
            }
        }
        s.intoArray(lanes, 0);
        return LaneSum.of(lanes, 0);
    }

    /**
     * One activation row's dot with Q2_K row r, decoded in registers: for each 32-byte run of {@code qs} (128 values),
     * L bytes at a time, the four 2-bit fields by constant shifts, each the L values of one 16-value sub-block, value
     * q · d · scale - dmin · minimum.
     */
    private float dotQ2K(int r, float[] a, int ao, int k, float[] lanes) {
        long at = base + (long) r * (cols / 256) * 84;
        FloatVector s = FloatVector.zero(F);
        for (int b = 0; b < k; b += 256, at += 84) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at + 80));
            float dmin = Float.float16ToFloat(seg.get(CpuTensor.I16, at + 82));
            for (int n = 0; n < 2; n++) {
                for (int l = 0; l < 32; l += L) {
                    ByteVector raw = ByteVector.fromMemorySegment(B, seg, at + 16 + 32 * n + l, NATIVE);
                    long sc = at + 8 * n + l / 16;
                    int x = ao + b + 128 * n + l;
                    int sm = seg.get(ValueLayout.JAVA_BYTE, sc) & 0xff;
                    FloatVector w = ((FloatVector) raw.and((byte) 3).convertShape(VectorOperators.B2F, F, 0))
                            .fma(d * (sm & 15), -dmin * (sm >> 4));
                    s = w.fma(FloatVector.fromArray(F, a, x), s);
                    sm = seg.get(ValueLayout.JAVA_BYTE, sc + 2) & 0xff;
                    w = ((FloatVector) raw.lanewise(VectorOperators.LSHR, 2)
                                    .and((byte) 3)
                                    .convertShape(VectorOperators.B2F, F, 0))
                            .fma(d * (sm & 15), -dmin * (sm >> 4));
                    s = w.fma(FloatVector.fromArray(F, a, x + 32), s);
                    sm = seg.get(ValueLayout.JAVA_BYTE, sc + 4) & 0xff;
                    w = ((FloatVector) raw.lanewise(VectorOperators.LSHR, 4)
                                    .and((byte) 3)
                                    .convertShape(VectorOperators.B2F, F, 0))
                            .fma(d * (sm & 15), -dmin * (sm >> 4));
                    s = w.fma(FloatVector.fromArray(F, a, x + 64), s);
                    sm = seg.get(ValueLayout.JAVA_BYTE, sc + 6) & 0xff;
                    w = ((FloatVector) raw.lanewise(VectorOperators.LSHR, 6)
                                    .and((byte) 3)
                                    .convertShape(VectorOperators.B2F, F, 0))
                            .fma(d * (sm & 15), -dmin * (sm >> 4));
                    s = w.fma(FloatVector.fromArray(F, a, x + 96), s);
                }
            }
        }
        s.intoArray(lanes, 0);
        return LaneSum.of(lanes, 0);
    }

    /**
     * One activation row's dot with Q3_K row r, decoded in registers as Q2_K's (constant shifts for the 2-bit fields),
     * 4 taken off where a compare against {@code hmask} (bit 4 · half + field) finds the high bit clear, the sub-block's
     * 6-bit scale less 32 times d folded in.
     */
    private float dotQ3K(int r, float[] a, int ao, int k, float[] lanes) {
        long at = base + (long) r * (cols / 256) * 110;
        FloatVector s = FloatVector.zero(F);
        for (int b = 0; b < k; b += 256, at += 110) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at + 108));
            for (int n = 0; n < 2; n++) {
                for (int l = 0; l < 32; l += L) {
                    ByteVector raw = ByteVector.fromMemorySegment(B, seg, at + 32 + 32 * n + l, NATIVE);
                    ByteVector hm = ByteVector.fromMemorySegment(B, seg, at + l, NATIVE);
                    int j = 8 * n + l / 16, x = ao + b + 128 * n + l;
                    FloatVector w = (FloatVector) raw.and((byte) 3)
                            .sub((byte) 4, hm.and((byte) (1 << (4 * n))).compare(VectorOperators.EQ, (byte) 0))
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * (BlockQuantization.scaleQ3K(seg, at + 96, j) - 32))
                            .fma(FloatVector.fromArray(F, a, x), s);
                    w = (FloatVector) raw.lanewise(VectorOperators.LSHR, 2)
                            .and((byte) 3)
                            .sub((byte) 4, hm.and((byte) (2 << (4 * n))).compare(VectorOperators.EQ, (byte) 0))
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * (BlockQuantization.scaleQ3K(seg, at + 96, j + 2) - 32))
                            .fma(FloatVector.fromArray(F, a, x + 32), s);
                    w = (FloatVector) raw.lanewise(VectorOperators.LSHR, 4)
                            .and((byte) 3)
                            .sub((byte) 4, hm.and((byte) (4 << (4 * n))).compare(VectorOperators.EQ, (byte) 0))
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * (BlockQuantization.scaleQ3K(seg, at + 96, j + 4) - 32))
                            .fma(FloatVector.fromArray(F, a, x + 64), s);
                    w = (FloatVector) raw.lanewise(VectorOperators.LSHR, 6)
                            .and((byte) 3)
                            .sub((byte) 4, hm.and((byte) (8 << (4 * n))).compare(VectorOperators.EQ, (byte) 0))
                            .convertShape(VectorOperators.B2F, F, 0);
                    s = w.mul(d * (BlockQuantization.scaleQ3K(seg, at + 96, j + 6) - 32))
                            .fma(FloatVector.fromArray(F, a, x + 96), s);
                }
            }
        }
        s.intoArray(lanes, 0);
        return LaneSum.of(lanes, 0);
    }

    /** 16 · bit j of {@code qh} for the L elements j = j0, j0 + 1, ... as floats. */
    private static FloatVector fifthBits(int qh, int j0) {
        return ((FloatVector) IntVector.broadcast(I, qh)
                        .lanewise(VectorOperators.LSHR, IntVector.fromArray(I, FIFTH_BIT, j0))
                        .and(1)
                        .convert(VectorOperators.I2F, 0))
                .mul(16f);
    }

    /** True when {@link #dotQuantized} applies: block rows and vectors wide enough to decode a block in one or two steps. */
    boolean fusedQuantizedDot() {
        return WIDE && dtype.isQuantized();
    }

    boolean isQ8() {
        return dtype == DType.Q8_0;
    }

    /**
     * out[i * ld + j] = Σ_kk a[ao + i * k + kk] · this[r, kk] for i < m (m <= 4), decoding each block
     * in registers: the 32 quants are multiplied into per-block sums, which the block scale then
     * folds into the running sums, so no dequantized row is stored and reloaded (a mat-vec over
     * quantized weights is a stream of weight bytes; this keeps the work per byte small).
     * {@code lanes} is the caller's scratch of at least 4·L floats (no allocation per row).
     */
    void dotQuantized(int r, float[] a, int ao, int m, int k, float[] out, int j, int ld, float[] lanes) {
        switch (dtype) {
            case Q8_0 -> dotQ8(r, a, ao, m, k, out, j, ld, lanes);
            case Q4_0 -> dotQ4(r, a, ao, m, k, out, j, ld, lanes);
            case Q6_K -> dotQ6K(r, a, ao, m, k, out, j, ld, lanes);
            case Q4_K, Q5_K -> dotQ45K(r, a, ao, m, k, out, j, ld, lanes);
            case Q3_K, Q2_K -> {
                for (int i = 0; i < m; i++)
                    out[j + i * ld] = dtype == DType.Q3_K
                            ? dotQ3K(r, a, ao + i * k, k, lanes)
                            : dotQ2K(r, a, ao + i * k, k, lanes);
            }
            default -> dotBlocks(r, a, ao, m, k, out, j, ld, lanes);
        }
    }

    /**
     * {@link #dotQuantized} for Q5_0, Q5_1 and Q4_1: each block decoded in registers as {@link #readBlocks} decodes it
     * (q · d + m, fifth bits from the broadcast u32) and multiplied into the running sums at once, so no decoded row
     * goes through memory; the minimum of Q5_1/Q4_1 makes folding the scale per block (as dotQ4 does) cost a second
     * sum per block, so the decode's fma is kept instead.
     */
    private void dotBlocks(int r, float[] a, int ao, int m, int k, float[] out, int j, int ld, float[] lanes) {
        int bytes = dtype.blockBytes();
        boolean withMin = dtype != DType.Q5_0, five = dtype != DType.Q4_1;
        long at = base + (long) r * (cols / 32) * bytes;
        long nibbles = (withMin ? 4 : 2) + (five ? 4 : 0);
        FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0;
        for (int b = 0; b < k; b += 32, at += bytes) {
            float d = Float.float16ToFloat(seg.get(CpuTensor.I16, at));
            float min = withMin ? Float.float16ToFloat(seg.get(CpuTensor.I16, at + 2)) : -16 * d;
            int qh = five ? seg.get(CpuTensor.I32, at + (withMin ? 4 : 2)) : 0;
            for (int i = 0; i < 16; i += L) { // low nibbles are elements 0..15, high nibbles 16..31
                ByteVector q = ByteVector.fromMemorySegment(B, seg, at + nibbles + i, NATIVE);
                FloatVector lo = (FloatVector) q.and((byte) 0x0f).convertShape(VectorOperators.B2F, F, 0);
                FloatVector hi = (FloatVector)
                        q.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0f).convertShape(VectorOperators.B2F, F, 0);
                if (five) {
                    lo = lo.add(fifthBits(qh, i));
                    hi = hi.add(fifthBits(qh, 16 + i));
                }
                lo = lo.fma(d, min);
                hi = hi.fma(d, min);
                s0 = hi.fma(
                        FloatVector.fromArray(F, a, ao + b + 16 + i),
                        lo.fma(FloatVector.fromArray(F, a, ao + b + i), s0));
                if (m > 1)
                    s1 = hi.fma(
                            FloatVector.fromArray(F, a, ao + k + b + 16 + i),
                            lo.fma(FloatVector.fromArray(F, a, ao + k + b + i), s1));
                if (m > 2)
                    s2 = hi.fma(
                            FloatVector.fromArray(F, a, ao + 2 * k + b + 16 + i),
                            lo.fma(FloatVector.fromArray(F, a, ao + 2 * k + b + i), s2));
                if (m > 3)
                    s3 = hi.fma(
                            FloatVector.fromArray(F, a, ao + 3 * k + b + 16 + i),
                            lo.fma(FloatVector.fromArray(F, a, ao + 3 * k + b + i), s3));
            }
        }
        s0.intoArray(lanes, 0);
        s1.intoArray(lanes, L);
        s2.intoArray(lanes, 2 * L);
        s3.intoArray(lanes, 3 * L);
        storeSums(lanes, m, out, j, ld);
    }

    private void dotQ8(int r, float[] a, int ao, int m, int k, float[] out, int j, int ld, float[] lanes) {
        long at = base + (long) r * (cols / 32) * 34;
        FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0;
        for (int b = 0; b < k; b += 32, at += 34) {
            FloatVector d = FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at)));
            FloatVector p0 = FloatVector.zero(F), p1 = p0, p2 = p0, p3 = p0;
            for (int i = 0; i < 32; i += L) {
                FloatVector q = (FloatVector) ByteVector.fromMemorySegment(B, seg, at + 2 + i, NATIVE)
                        .convertShape(VectorOperators.B2F, F, 0);
                p0 = q.fma(FloatVector.fromArray(F, a, ao + b + i), p0);
                if (m > 1) p1 = q.fma(FloatVector.fromArray(F, a, ao + k + b + i), p1);
                if (m > 2) p2 = q.fma(FloatVector.fromArray(F, a, ao + 2 * k + b + i), p2);
                if (m > 3) p3 = q.fma(FloatVector.fromArray(F, a, ao + 3 * k + b + i), p3);
            }
            s0 = p0.fma(d, s0);
            if (m > 1) s1 = p1.fma(d, s1);
            if (m > 2) s2 = p2.fma(d, s2);
            if (m > 3) s3 = p3.fma(d, s3);
        }
        s0.intoArray(lanes, 0);
        s1.intoArray(lanes, L);
        s2.intoArray(lanes, 2 * L);
        s3.intoArray(lanes, 3 * L);
        storeSums(lanes, m, out, j, ld);
    }

    /**
     * out[j + q * ld] = a · this[r + q * dr] for q < 4 and one activation row (Q8_0 only): four
     * rows far apart in memory are read in the same loop, four independent streams, which keeps
     * more cache-line misses in flight than one row at a time (in-process A/B on Zen 4 from
     * DRAM: two streams +13-27 % over one, four +18-20 % over two, eight +20 % over four).
     * Activation loads are shared.
     */
    void dotQ8Quad(int r, int dr, float[] a, int k, float[] out, int j, int ld, float[] lanes) {
        long rowBytes = (long) (cols / 32) * 34, at0 = base + r * rowBytes, step = dr * rowBytes;
        FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0;
        for (int b = 0; b < k; b += 32, at0 += 34) {
            long at1 = at0 + step, at2 = at1 + step, at3 = at2 + step;
            FloatVector p0 = FloatVector.zero(F), p1 = p0, p2 = p0, p3 = p0;
            for (int i = 0; i < 32; i += L) {
                FloatVector x = FloatVector.fromArray(F, a, b + i);
                p0 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at0 + 2 + i, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(x, p0);
                p1 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at1 + 2 + i, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(x, p1);
                p2 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at2 + 2 + i, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(x, p2);
                p3 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at3 + 2 + i, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(x, p3);
            }
            s0 = p0.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at0))), s0);
            s1 = p1.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at1))), s1);
            s2 = p2.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at2))), s2);
            s3 = p3.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at3))), s3);
        }
        s0.intoArray(lanes, 0);
        s1.intoArray(lanes, L);
        s2.intoArray(lanes, 2 * L);
        s3.intoArray(lanes, 3 * L);
        for (int q = 0; q < 4; q++) out[j + q * ld] = LaneSum.of(lanes, q * L);
    }

    /**
     * {@link #dotQ8Quad} with eight rows (16 sums: for the 32 vector registers of AVX-512), for
     * {@code cnt} consecutive rows of each of the eight parts: out[j + q * ld] = a · this[r + j + q * dr]
     * for j < cnt, q < 8. The loop over j lives in the kernel, which is static with its segment
     * as an argument: one call per eight rows, reading the fields inside, reached less of the
     * read bandwidth (in-process A/B, 4096 x 4096).
     */
    void dotQ8Oct(int r, int cnt, int dr, float[] a, int k, float[] out, int ld) {
        long rowBytes = (long) (cols / 32) * 34;
        q8Oct(seg, base + r * rowBytes, rowBytes, dr * rowBytes, cnt, a, k, out, ld);
    }

    private static void q8Oct(
            MemorySegment seg, long start, long rowBytes, long step, int cnt, float[] a, int k, float[] out, int ld) {
        if (L != 16)
            throw new IllegalStateException("the eight-stream Q8_0 kernel needs 16-lane float vectors, not " + L);
        float[] lanes = new float[8 * L];
        for (int j = 0; j < cnt; j++) {
            long at0 = start + j * rowBytes;
            FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
            for (int b = 0; b < k; b += 32, at0 += 34) {
                long at1 = at0 + step,
                        at2 = at1 + step,
                        at3 = at2 + step,
                        at4 = at3 + step,
                        at5 = at4 + step,
                        at6 = at5 + step,
                        at7 = at6 + step;
                // the block's 32 quants as two 16-lane halves, written out (L == 16 here)
                FloatVector x = FloatVector.fromArray(F, a, b), y = FloatVector.fromArray(F, a, b + 16);
                FloatVector p0 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at0 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at0 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                FloatVector p1 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at1 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at1 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                FloatVector p2 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at2 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at2 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                FloatVector p3 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at3 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at3 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                FloatVector p4 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at4 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at4 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                FloatVector p5 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at5 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at5 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                FloatVector p6 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at6 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at6 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                FloatVector p7 = ((FloatVector) ByteVector.fromMemorySegment(B, seg, at7 + 2, NATIVE)
                                .convertShape(VectorOperators.B2F, F, 0))
                        .fma(
                                x,
                                ((FloatVector) ByteVector.fromMemorySegment(B, seg, at7 + 18, NATIVE)
                                                .convertShape(VectorOperators.B2F, F, 0))
                                        .mul(y));
                s0 = p0.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at0))), s0);
                s1 = p1.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at1))), s1);
                s2 = p2.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at2))), s2);
                s3 = p3.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at3))), s3);
                s4 = p4.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at4))), s4);
                s5 = p5.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at5))), s5);
                s6 = p6.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at6))), s6);
                s7 = p7.fma(FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at7))), s7);
            }
            // lane sums through memory, not a cross-vector tree: blend and rearrange were compiled on their own while
            // the
            // kernel ran interpreted, were then too big to inline, and the compiled kernel boxed every vector
            s0.intoArray(lanes, 0);
            s1.intoArray(lanes, L);
            s2.intoArray(lanes, 2 * L);
            s3.intoArray(lanes, 3 * L);
            s4.intoArray(lanes, 4 * L);
            s5.intoArray(lanes, 5 * L);
            s6.intoArray(lanes, 6 * L);
            s7.intoArray(lanes, 7 * L);
            LaneSum.ofEightSixteens(lanes, out, j, ld);
        }
    }

    /** {@link #dotQ8Oct} for unit-stride F32 rows (L == 16 here, as for the Q8_0 kernel). */
    void dotF32Oct(int r, int cnt, int dr, float[] a, int k, float[] out, int ld) {
        f32Oct(seg, base + r * rowStride * 4, rowStride * 4, dr * rowStride * 4, cnt, a, k, out, ld);
    }

    private static void f32Oct(
            MemorySegment seg, long start, long rowBytes, long step, int cnt, float[] a, int k, float[] out, int ld) {
        if (L != 16)
            throw new IllegalStateException("the eight-stream F32 kernel needs 16-lane float vectors, not " + L);
        float[] lanes = new float[8 * L];
        for (int j = 0; j < cnt; j++) {
            long at0 = start + j * rowBytes;
            FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
            int kk = 0;
            for (int upper = F.loopBound(k); kk < upper; kk += L) {
                FloatVector x = FloatVector.fromArray(F, a, kk);
                long at = at0 + kk * 4L;
                s0 = FloatVector.fromMemorySegment(F, seg, at, NATIVE).fma(x, s0);
                s1 = FloatVector.fromMemorySegment(F, seg, at + step, NATIVE).fma(x, s1);
                s2 = FloatVector.fromMemorySegment(F, seg, at + 2 * step, NATIVE)
                        .fma(x, s2);
                s3 = FloatVector.fromMemorySegment(F, seg, at + 3 * step, NATIVE)
                        .fma(x, s3);
                s4 = FloatVector.fromMemorySegment(F, seg, at + 4 * step, NATIVE)
                        .fma(x, s4);
                s5 = FloatVector.fromMemorySegment(F, seg, at + 5 * step, NATIVE)
                        .fma(x, s5);
                s6 = FloatVector.fromMemorySegment(F, seg, at + 6 * step, NATIVE)
                        .fma(x, s6);
                s7 = FloatVector.fromMemorySegment(F, seg, at + 7 * step, NATIVE)
                        .fma(x, s7);
            }
            s0.intoArray(lanes, 0);
            s1.intoArray(lanes, L);
            s2.intoArray(lanes, 2 * L);
            s3.intoArray(lanes, 3 * L); // as in q8Oct
            s4.intoArray(lanes, 4 * L);
            s5.intoArray(lanes, 5 * L);
            s6.intoArray(lanes, 6 * L);
            s7.intoArray(lanes, 7 * L);
            LaneSum.ofEightSixteens(lanes, out, j, ld);
            for (int q = 0; q < 8 && kk < k; q++) {
                float t = out[j + q * ld];
                for (int i = kk; i < k; i++) t += a[i] * seg.get(CpuTensor.F32, at0 + q * step + i * 4L);
                out[j + q * ld] = t;
            }
        }
    }

    /**
     * {@link #dotF32Oct} for unit-stride F16 rows: each 16 halves widened in registers ({@link #halves}) and multiplied
     * at once, eight rows a loop. Without it a one-row product over F16 weights (a Whisper decoder step over an F16
     * file) decoded each weight row into an array first and then read it again.
     */
    void dotF16Oct(int r, int cnt, int dr, float[] a, int k, float[] out, int ld) {
        f16Oct(seg, base + r * rowStride * 2, rowStride * 2, dr * rowStride * 2, cnt, a, k, out, ld);
    }

    private static void f16Oct(
            MemorySegment seg, long start, long rowBytes, long step, int cnt, float[] a, int k, float[] out, int ld) {
        if (L != 16)
            throw new IllegalStateException("the eight-stream F16 kernel needs 16-lane float vectors, not " + L);
        float[] lanes = new float[8 * L];
        for (int j = 0; j < cnt; j++) {
            long at0 = start + j * rowBytes;
            FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
            int kk = 0;
            for (int upper = F.loopBound(k); kk < upper; kk += L) {
                FloatVector x = FloatVector.fromArray(F, a, kk);
                long at = at0 + kk * 2L;
                s0 = halves(seg, at).fma(x, s0);
                s1 = halves(seg, at + step).fma(x, s1);
                s2 = halves(seg, at + 2 * step).fma(x, s2);
                s3 = halves(seg, at + 3 * step).fma(x, s3);
                s4 = halves(seg, at + 4 * step).fma(x, s4);
                s5 = halves(seg, at + 5 * step).fma(x, s5);
                s6 = halves(seg, at + 6 * step).fma(x, s6);
                s7 = halves(seg, at + 7 * step).fma(x, s7);
            }
            s0.intoArray(lanes, 0);
            s1.intoArray(lanes, L);
            s2.intoArray(lanes, 2 * L);
            s3.intoArray(lanes, 3 * L); // as in q8Oct
            s4.intoArray(lanes, 4 * L);
            s5.intoArray(lanes, 5 * L);
            s6.intoArray(lanes, 6 * L);
            s7.intoArray(lanes, 7 * L);
            LaneSum.ofEightSixteens(lanes, out, j, ld);
            for (int q = 0; q < 8 && kk < k; q++) {
                float t = out[j + q * ld];
                for (int i = kk; i < k; i++)
                    t += a[i] * Float.float16ToFloat(seg.get(CpuTensor.I16, at0 + q * step + i * 2L));
                out[j + q * ld] = t;
            }
        }
    }

    /**
     * a · F16 row {@code r} over k values, for the rows {@link #dotF16Oct}'s eight streams leave over, summed in the
     * same order (lanes, {@link LaneSum}'s tree, the k tail) so that a row's result does not depend on its path.
     */
    float dotF16Row(int r, float[] a, int k, float[] lanes) {
        long at = base + r * rowStride * 2;
        FloatVector s = FloatVector.zero(F);
        int kk = 0;
        for (int upper = F.loopBound(k); kk < upper; kk += L)
            s = halves(seg, at + kk * 2L).fma(FloatVector.fromArray(F, a, kk), s);
        s.intoArray(lanes, 0);
        float t = LaneSum.of(lanes, 0);
        for (; kk < k; kk++) t += a[kk] * Float.float16ToFloat(seg.get(CpuTensor.I16, at + kk * 2L));
        return t;
    }

    private void dotQ4(int r, float[] a, int ao, int m, int k, float[] out, int j, int ld, float[] lanes) {
        long at = base + (long) r * (cols / 32) * 18;
        FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0;
        for (int b = 0; b < k; b += 32, at += 18) {
            FloatVector d = FloatVector.broadcast(F, Float.float16ToFloat(seg.get(CpuTensor.I16, at)));
            FloatVector p0 = FloatVector.zero(F), p1 = p0, p2 = p0, p3 = p0;
            for (int i = 0; i < 16; i += L) { // low nibbles are elements 0..15, high nibbles 16..31
                ByteVector q = ByteVector.fromMemorySegment(B, seg, at + 2 + i, NATIVE);
                FloatVector lo = (FloatVector) q.and((byte) 0x0f).sub((byte) 8).convertShape(VectorOperators.B2F, F, 0);
                FloatVector hi = (FloatVector) q.lanewise(VectorOperators.LSHR, 4)
                        .and((byte) 0x0f)
                        .sub((byte) 8)
                        .convertShape(VectorOperators.B2F, F, 0);
                p0 = hi.fma(
                        FloatVector.fromArray(F, a, ao + b + 16 + i),
                        lo.fma(FloatVector.fromArray(F, a, ao + b + i), p0));
                if (m > 1)
                    p1 = hi.fma(
                            FloatVector.fromArray(F, a, ao + k + b + 16 + i),
                            lo.fma(FloatVector.fromArray(F, a, ao + k + b + i), p1));
                if (m > 2)
                    p2 = hi.fma(
                            FloatVector.fromArray(F, a, ao + 2 * k + b + 16 + i),
                            lo.fma(FloatVector.fromArray(F, a, ao + 2 * k + b + i), p2));
                if (m > 3)
                    p3 = hi.fma(
                            FloatVector.fromArray(F, a, ao + 3 * k + b + 16 + i),
                            lo.fma(FloatVector.fromArray(F, a, ao + 3 * k + b + i), p3));
            }
            s0 = p0.fma(d, s0);
            if (m > 1) s1 = p1.fma(d, s1);
            if (m > 2) s2 = p2.fma(d, s2);
            if (m > 3) s3 = p3.fma(d, s3);
        }
        s0.intoArray(lanes, 0);
        s1.intoArray(lanes, L);
        s2.intoArray(lanes, 2 * L);
        s3.intoArray(lanes, 3 * L);
        storeSums(lanes, m, out, j, ld);
    }

    /** out[i * ld + j] = the lane sum of row i's vector, stored at lanes[i * L], for i < m. */
    private static void storeSums(float[] lanes, int m, float[] out, int j, int ld) {
        for (int i = 0; i < m; i++) out[i * ld + j] = LaneSum.of(lanes, i * L);
    }

    /**
     * Row-major F32 (activations: the encoder's A panels) into a panel no wider than a vector:
     * the rows are copied out in bulk to {@code scratch} (rows · kc floats), then each k's column
     * is one masked gather (lanes past {@code rows} read as zero) and one store. The scalar
     * transpose cost 4-5 cycles a value, a third of Moonshine's encoder GEMM time; the gather
     * runs at a third of that (same values, only moved). Each store spills lanes past the panel
     * width into the next k's slot, which the next store overwrites; the last store is masked,
     * so nothing past the panel is written (needs 2 · width >= L).
     */
    private void packRowMajorF32(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] scratch) {
        for (int r = 0; r < rows; r++)
            MemorySegment.copy(seg, CpuTensor.F32, base + ((r0 + r) * rowStride + k0) * 4, scratch, r * kc, kc);
        gather(scratch, rows, kc, dst, off, width);
    }

    /**
     * dst[off + kk · width + r] = rowsOfK[r · kc + kk] for r < rows, 0 up to width, by one masked gather per k (see
     * {@link #packRowMajorF32}); nothing past the panel is written.
     */
    static void gather(float[] rowsOfK, int rows, int kc, float[] dst, int off, int width) {
        int[] rowStarts = new int[L];
        for (int r = 0; r < rows; r++) rowStarts[r] = r * kc;
        VectorMask<Float> live = VectorMask.fromLong(F, (1L << rows) - 1),
                panel = VectorMask.fromLong(F, (1L << width) - 1);
        int kk = 0;
        for (int at = off; kk < kc - 1; kk++, at += width)
            FloatVector.fromArray(F, rowsOfK, kk, rowStarts, 0, live).intoArray(dst, at);
        FloatVector.fromArray(F, rowsOfK, kk, rowStarts, 0, live).intoArray(dst, off + kk * width, panel);
    }

    /** Column-major F32 (unit stride down a column) copies each column's run of rows in one go. */
    @Override
    public void packPanel(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] row) {
        if (dtype == DType.F32
                && colStride == 1
                && rows >= 2
                && width <= L
                && 2 * width >= L
                && kc >= 2
                && row.length >= rows * kc) {
            packRowMajorF32(r0, rows, k0, kc, dst, off, width, row);
            return;
        }
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
        return halves(seg, at);
    }

    /** {@link #f16Vector} of any segment: static, for the kernels that take their segment as an argument. */
    private static FloatVector halves(MemorySegment seg, long at) {
        IntVector h =
                (IntVector) ShortVector.fromMemorySegment(H, seg, at, NATIVE).convertShape(VectorOperators.S2I, I, 0);
        // exponent and mantissa moved into float position: off by 2^112 for finite values (also subnormals)
        FloatVector magnitude = h.and(0x7fff)
                .lanewise(VectorOperators.LSHL, 13)
                .reinterpretAsFloats()
                .mul(0x1.0p112f);
        VectorMask<Integer> special = h.and(0x7c00).eq(0x7c00); // infinity or NaN: exponent becomes all ones
        IntVector bits = magnitude
                .reinterpretAsInts()
                .blend(h.and(0x3ff).lanewise(VectorOperators.LSHL, 13).or(0x7f800000), special);
        return bits.or(h.and(0x8000).lanewise(VectorOperators.LSHL, 16)).reinterpretAsFloats();
    }

    /** L 16-bit values at byte offset {@code at}, sign-extended to ints. */
    private IntVector widen(long at) {
        return (IntVector) ShortVector.fromMemorySegment(H, seg, at, NATIVE).convertShape(VectorOperators.S2I, I, 0);
    }

    /** True when rows are unit-stride F32, so a caller may read them straight from {@link #segment()}. */
    boolean denseF32() {
        return dtype == DType.F32 && colStride == 1;
    }

    /** True when rows are unit-stride F16 ({@link #dotF16Oct}). */
    boolean denseF16() {
        return dtype == DType.F16 && colStride == 1;
    }

    MemorySegment segment() {
        return seg;
    }

    /** Byte offset of element (r, 0). */
    long rowAddress(int r) {
        return base + r * rowStride * 4;
    }
}
