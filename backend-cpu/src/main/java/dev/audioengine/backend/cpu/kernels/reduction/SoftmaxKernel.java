package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import dev.audioengine.backend.cpu.kernels.elementwise.BinaryKernel;
import java.lang.foreign.MemorySegment;

/**
 * softmax(x · scale + mask) over each row, computed in the output row: gather, scale and add the
 * broadcast mask, subtract the max, exponentiate, normalize. A row whose every value is −inf
 * (all keys masked) becomes zeros, as the reference defines.
 */
public final class SoftmaxKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        float scale = ((Op.Softmax) node.op()).scale();
        CpuTensor x = in[0];
        CpuTensor mask = in.length > 1 ? BinaryKernel.broadcastTo(in[1], out) : null;
        int rows = Rows.count(out), n = (int) out.dims()[3];
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            for (int r = from; r < to; r++) {
                long o = out.base() + 4L * r * n;
                Rows.gather(x, Rows.offset(x, r), n, dst, o);
                if (mask != null) {
                    RowMath.scaleAdd(
                            dst,
                            o,
                            n,
                            scale,
                            mask.segment(),
                            mask.base() + 4 * Rows.offset(mask, r),
                            mask.strides()[3]);
                } else if (scale != 1f) {
                    RowMath.scale(dst, o, n, scale);
                }
                float max = RowMath.max(dst, o, n);
                if (max == Float.NEGATIVE_INFINITY) {
                    RowMath.fill(dst, o, n, 0f);
                    continue;
                }
                float sum = RowMath.expShiftSum(dst, o, n, max);
                RowMath.scale(dst, o, n, 1f / sum);
            }
        });
    }
}
