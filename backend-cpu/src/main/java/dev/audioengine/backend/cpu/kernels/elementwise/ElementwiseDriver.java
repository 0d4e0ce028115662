package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/**
 * Runs a one-input, same-shape F32 map over contiguous spans. A contiguous input is cut into
 * equal spans, one per worker, whatever its shape; a strided input goes row by row, each row
 * first gathered into its place in the (contiguous) output and then mapped in place.
 */
final class ElementwiseDriver {
    /** f over n contiguous floats: src at srcByte to dst at dstByte (they may be the same memory). */
    @FunctionalInterface
    interface Span {
        void apply(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n);
    }

    /** Spans of at least this many elements are worth a task of their own. */
    private static final int MIN_SPAN = 4096;

    private ElementwiseDriver() {}

    static Runnable bind(CpuTensor in, CpuTensor out, KernelContext ctx, Span f) {
        long total = out.elements();
        MemorySegment src = in.segment(), dst = out.segment();
        if (in.isContiguous()) {
            int spans = (int) Math.max(1, Math.min(ctx.pool().threads(), total / MIN_SPAN));
            return () -> ctx.pool().parallelRanges(spans, (from, to) -> {
                long start = total * from / spans, end = total * to / spans;
                f.apply(src, in.base() + 4 * start, dst, out.base() + 4 * start, (int) (end - start));
            });
        }
        int rows = Rows.count(out), n = (int) out.dims()[3];
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            for (int r = from; r < to; r++) {
                long dstByte = out.base() + 4L * r * n;
                Rows.gather(in, Rows.offset(in, r), n, dst, dstByte);
                f.apply(dst, dstByte, dst, dstByte, n);
            }
        });
    }
}
