package dev.audioengine.backend.cpu.kernels.layout;

import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies a view whose unit-stride axis is not the last one (a transpose or permute) into
 * row-major order in 32×32 tiles, so reads run along the input's unit-stride axis and writes
 * along the output's, each tile staying in L1. An element-by-element copy would stride through
 * memory on one side.
 */
final class TiledTranspose {
    private static final int TILE = 32;

    private TiledTranspose() {}

    /** An axis among the first three with unit stride and more than one element, or −1. */
    static int unitStrideAxis(CpuTensor x) {
        for (int a = 0; a < 3; a++) if (x.strides()[a] == 1 && x.dims()[a] > 1) return a;
        return -1;
    }

    /** x and out share dims; out is contiguous; elements are {@code es} bytes (1, 2 or 4). */
    static Runnable bind(CpuTensor x, CpuTensor out, int p, int es, KernelContext ctx) {
        long[] d = x.dims(), xs = x.strides();
        long[] os = {d[1] * d[2] * d[3], d[2] * d[3], d[3], 1};
        int[] others = new int[2];
        for (int a = 0, k = 0; a < 3; a++) if (a != p) others[k++] = a;
        int a1 = others[0], a2 = others[1];
        int pTiles = (int) ((d[p] + TILE - 1) / TILE);
        int tasks = Math.toIntExact(d[a1] * d[a2] * pTiles);
        int n = (int) d[3], np = (int) d[p];
        MemorySegment src = x.segment(), dst = out.segment();
        return () -> ctx.pool().parallelRanges(tasks, (from, to) -> {
            for (int task = from; task < to; task++) {
                int tile = task % pTiles;
                long rest = task / pTiles, i2 = rest % d[a2], i1 = rest / d[a2];
                long srcBase = i1 * xs[a1] + i2 * xs[a2], dstBase = i1 * os[a1] + i2 * os[a2];
                int iEnd = Math.min(np, (tile + 1) * TILE);
                for (int jb = 0; jb < n; jb += TILE) {
                    int jEnd = Math.min(n, jb + TILE);
                    for (int i = tile * TILE; i < iEnd; i++) {
                        long s = x.base() + es * (srcBase + i), t = out.base() + es * (dstBase + i * os[p]);
                        copyRow(src, s, es * xs[3], dst, t, jb, jEnd, es);
                    }
                }
            }
        });
    }

    /** dst[t + j·es] = src[s + j·srcStep] for j in [from, to). */
    private static void copyRow(
            MemorySegment src, long s, long srcStep, MemorySegment dst, long t, int from, int to, int es) {
        switch (es) {
            case 4 -> {
                for (int j = from; j < to; j++)
                    dst.set(
                            ValueLayout.JAVA_INT_UNALIGNED,
                            t + 4L * j,
                            src.get(ValueLayout.JAVA_INT_UNALIGNED, s + j * srcStep));
            }
            case 2 -> {
                for (int j = from; j < to; j++)
                    dst.set(
                            ValueLayout.JAVA_SHORT_UNALIGNED,
                            t + 2L * j,
                            src.get(ValueLayout.JAVA_SHORT_UNALIGNED, s + j * srcStep));
            }
            default -> {
                for (int j = from; j < to; j++)
                    dst.set(ValueLayout.JAVA_BYTE, t + j, src.get(ValueLayout.JAVA_BYTE, s + j * srcStep));
            }
        }
    }
}
