package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/**
 * sum, mean and max along one axis (keepDim only changes the shape, not the order). Along the
 * last axis each row reduces to one value with a vector loop; along another axis each output
 * row accumulates the input rows it covers, so the vector loop still runs along the last axis.
 */
public final class ReduceKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Reduce op = (Op.Reduce) node.op();
        CpuTensor x = in[0];
        int axis = op.axis() + 4 - node.input(0).rank();
        long[] d = x.dims();
        int n = (int) d[axis];
        boolean max = op.kind() == Op.ReduceKind.MAX, mean = op.kind() == Op.ReduceKind.MEAN;
        MemorySegment dst = out.segment();
        if (axis == 3) {
            int rows = Rows.count(x);
            boolean unit = Rows.unitStride(x);
            long s = x.strides()[3];
            return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
                for (int r = from; r < to; r++) {
                    long off = Rows.offset(x, r);
                    float v;
                    if (unit) {
                        long byteOff = x.base() + 4 * off;
                        v = max ? RowMath.max(x.segment(), byteOff, n) : RowMath.sum(x.segment(), byteOff, n);
                    } else {
                        v = max ? Float.NEGATIVE_INFINITY : 0f;
                        for (int i = 0; i < n; i++) {
                            float e = x.getFloat(off + i * s);
                            v = max ? Math.max(v, e) : v + e;
                        }
                    }
                    dst.set(CpuTensor.F32, out.base() + 4L * r, mean ? v / n : v);
                }
            });
        }
        long[] od = d.clone();
        od[axis] = 1;
        int outRows = Math.toIntExact(od[0] * od[1] * od[2]), m = (int) d[3];
        long axisStride = x.strides()[axis], s3 = x.strides()[3];
        return () -> ctx.pool().parallelRanges(outRows, (from, to) -> {
            for (int r = from; r < to; r++) {
                long o = out.base() + 4L * r * m;
                long c = r % od[2], b = (r / od[2]) % od[1], a = r / (od[1] * od[2]);
                long first = x.offset(a, b, c, 0);
                RowMath.fill(dst, o, m, max ? Float.NEGATIVE_INFINITY : 0f);
                for (int j = 0; j < n; j++) {
                    RowMath.accumulate(dst, o, m, x.segment(), x.base() + 4 * (first + j * axisStride), s3, max);
                }
                if (mean) RowMath.scale(dst, o, m, 1f / n);
            }
        });
    }
}
