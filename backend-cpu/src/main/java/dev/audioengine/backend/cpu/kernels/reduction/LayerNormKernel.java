package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/** (x − mean) / sqrt(var + eps) · gamma + beta over each row; statistics by {@link RowMath#meanAndVariance}. */
public final class LayerNormKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        float eps = ((Op.LayerNorm) node.op()).eps();
        CpuTensor x = in[0];
        CpuTensor gamma = in.length > 1 ? in[1] : null, beta = in.length > 2 ? in[2] : null;
        int rows = Rows.count(out), n = (int) out.dims()[3];
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            float[] stats = new float[3]; // one per worker chunk
            for (int r = from; r < to; r++) {
                long o = out.base() + 4L * r * n;
                Rows.gather(x, Rows.offset(x, r), n, dst, o);
                RowMath.meanAndVariance(dst, o, n, stats);
                float inv = (float) (1 / Math.sqrt(stats[2] + eps));
                RowMath.normalize(dst, o, n, stats[0], stats[1], inv, gamma, beta);
            }
        });
    }
}
