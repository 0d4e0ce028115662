package dev.audioengine.backend.cpu.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Rows are the last axis of the rank-4 index space; most kernels take one row as their unit of
 * work. These helpers find a row's first element in a strided tensor and copy a strided F32 row
 * into contiguous memory (kernels gather into their contiguous output, then work in place).
 */
public final class Rows {
    private Rows() {}

    /** Number of rows: the product of the first three padded dims. */
    public static int count(CpuTensor t) {
        long[] d = t.dims();
        return Math.toIntExact(d[0] * d[1] * d[2]);
    }

    /** Element offset of row {@code r}'s first element, rows numbered in row-major order of {@code t}'s dims. */
    public static long offset(CpuTensor t, long r) {
        long[] d = t.dims();
        long c = r % d[2];
        r /= d[2];
        long b = r % d[1];
        long a = r / d[1];
        return t.offset(a, b, c, 0);
    }

    /** True when the tensor's last axis is unit-stride (or has a single element). */
    public static boolean unitStride(CpuTensor t) {
        return t.strides()[3] == 1 || t.dims()[3] == 1;
    }

    /** Copies {@code n} F32 values starting at element offset {@code off} of {@code in} along its last axis to {@code dst}. */
    public static void gather(CpuTensor in, long off, int n, MemorySegment dst, long dstByte) {
        long s = in.strides()[3];
        MemorySegment src = in.segment();
        long srcByte = in.base() + off * 4;
        if (s == 1 || n == 1) {
            MemorySegment.copy(src, srcByte, dst, dstByte, n * 4L);
            return;
        }
        for (int i = 0; i < n; i++)
            dst.set(CpuTensor.F32, dstByte + 4L * i, src.get(CpuTensor.F32, srcByte + 4L * i * s));
    }
}
