package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/** x / sqrt(mean(x²) + eps) · gamma over each row. */
public final class RmsNormKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        float eps = ((Op.RmsNorm) node.op()).eps();
        CpuTensor x = in[0], gamma = in.length > 1 ? in[1] : null;
        int rows = Rows.count(out), n = (int) out.dims()[3];
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            for (int r = from; r < to; r++) {
                long o = out.base() + 4L * r * n;
                Rows.gather(x, Rows.offset(x, r), n, dst, o);
                float meanSquare = RowMath.sumSquaredDeviation(dst, o, n, 0f) / n;
                float inv = (float) (1 / Math.sqrt(meanSquare + eps));
                RowMath.normalize(dst, o, n, 0f, 0f, inv, gamma, null);
            }
        });
    }
}
