package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** Snake: x + sin²(αx) / (α + 1e-9) with α per channel; x [B, C, T] so a row is one (batch, channel). */
public final class SnakeKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor x = in[0], alpha = in[1];
        int rows = Rows.count(out), n = (int) out.dims()[3], channels = (int) out.dims()[2];
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            for (int r = from; r < to; r++) {
                float a = alpha.getFloat(alpha.offset(0, 0, 0, r % channels));
                float inv = 1f / (a + 1e-9f);
                long o = out.base() + 4L * r * n;
                Rows.gather(x, Rows.offset(x, r), n, dst, o);
                int i = 0;
                for (int upper = S.loopBound(n); i < upper; i += S.length()) {
                    FloatVector v = FloatVector.fromMemorySegment(S, dst, o + 4L * i, ByteOrder.nativeOrder());
                    FloatVector s = v.mul(a).lanewise(VectorOperators.SIN);
                    s.mul(s)
                            .fma(FloatVector.broadcast(S, inv), v)
                            .intoMemorySegment(dst, o + 4L * i, ByteOrder.nativeOrder());
                }
                for (; i < n; i++) {
                    float v = dst.get(CpuTensor.F32, o + 4L * i);
                    float s = (float) Math.sin(a * v);
                    dst.set(CpuTensor.F32, o + 4L * i, v + s * s * inv);
                }
            }
        });
    }
}
