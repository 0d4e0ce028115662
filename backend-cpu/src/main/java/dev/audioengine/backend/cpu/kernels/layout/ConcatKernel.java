package dev.audioengine.backend.cpu.kernels.layout;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/**
 * Concatenation along one axis: every row of every input is copied to its place in the output,
 * shifted along the concat axis by the sizes of the inputs before it. Work is split over the
 * rows of all inputs together.
 */
public final class ConcatKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        int axis = ((Op.Concat) node.op()).axis() + 4 - node.rank();
        int parts = in.length;
        long[] shift = new long[parts];
        int[] firstRow = new int[parts + 1];
        for (int p = 0; p < parts; p++) {
            if (p > 0) shift[p] = shift[p - 1] + in[p - 1].dims()[axis];
            firstRow[p + 1] = firstRow[p] + Rows.count(in[p]);
        }
        long[] od = out.dims();
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(firstRow[parts], (from, to) -> {
            int p = 0;
            for (int g = from; g < to; g++) {
                while (g >= firstRow[p + 1]) p++;
                CpuTensor x = in[p];
                long[] d = x.dims();
                long r = g - firstRow[p];
                long[] idx = {r / (d[1] * d[2]), (r / d[2]) % d[1], r % d[2], 0};
                long srcOff = x.offset(idx[0], idx[1], idx[2], 0);
                idx[axis] += shift[p];
                long dstElem = ((idx[0] * od[1] + idx[1]) * od[2] + idx[2]) * od[3] + idx[3];
                Rows.gather(x, srcOff, (int) d[3], dst, out.base() + 4 * dstElem);
            }
        });
    }
}
