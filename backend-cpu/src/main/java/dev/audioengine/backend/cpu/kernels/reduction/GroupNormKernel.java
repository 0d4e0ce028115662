package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;

/**
 * x [B, C, ...]: each (batch, group) is one contiguous span of the output (C/groups channels times
 * the trailing axes). A task gathers its span, takes mean and variance over it, then normalizes
 * channel by channel with that channel's gamma and beta. Statistics by {@link RowMath#meanAndVariance}.
 */
public final class GroupNormKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.GroupNorm op = (Op.GroupNorm) node.op();
        CpuTensor x = in[0];
        CpuTensor gamma = in.length > 1 ? in[1] : null, beta = in.length > 2 ? in[2] : null;
        int b = (int) node.dim(0), c = (int) node.dim(1), groups = op.groups(), perGroup = c / groups;
        int spatial = (int) (node.elements() / Math.max(1, (long) b * c));
        int span = perGroup * spatial;
        float eps = op.eps();
        boolean contiguous = x.isContiguous();
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(b * groups, (from, to) -> {
            float[] stats = new float[3]; // one per worker chunk
            for (int task = from; task < to; task++) {
                long first = (long) task * span; // element index of the span, in the output and in x's logical order
                long o = out.base() + 4 * first;
                if (contiguous) {
                    MemorySegment.copy(x.segment(), x.base() + 4 * first, dst, o, 4L * span);
                } else {
                    for (int i = 0; i < span; i++)
                        dst.set(CpuTensor.F32, o + 4L * i, x.getFloat(x.offsetOfLinear(first + i)));
                }
                RowMath.meanAndVariance(dst, o, span, stats);
                float inv = (float) (1 / Math.sqrt(stats[2] + eps));
                for (int k = 0; k < perGroup; k++) {
                    int ch = (task % groups) * perGroup + k;
                    float g = gamma == null ? 1f : gamma.getFloat(gamma.offset(0, 0, 0, ch));
                    float bb = beta == null ? 0f : beta.getFloat(beta.offset(0, 0, 0, ch));
                    RowMath.affine(dst, o + 4L * k * spatial, spatial, stats[0], stats[1], inv * g, bb);
                }
            }
        });
    }
}
