package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.FloatMath;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
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
                    // sin(a·v) as FloatMath.sin, written out (the Vector API's SIN differs between JIT tiers)
                    FloatVector ax = v.mul(a);
                    FloatVector t = ax.fma(FloatMath.TWO_OVER_PI, FloatMath.ROUND);
                    FloatVector k = t.sub(FloatMath.ROUND);
                    FloatVector rr = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_1), ax);
                    rr = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_2), rr);
                    rr = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_3), rr);
                    IntVector q = ((IntVector) t.reinterpretAsInts()).and(3);
                    FloatVector z = rr.mul(rr);
                    FloatVector sp = z.fma(FloatMath.SIN3, FloatMath.SIN2)
                            .fma(z, FloatVector.broadcast(S, FloatMath.SIN1))
                            .mul(z)
                            .fma(rr, rr);
                    FloatVector cp = z.fma(FloatMath.COS3, FloatMath.COS2)
                            .fma(z, FloatVector.broadcast(S, FloatMath.COS1))
                            .mul(z)
                            .fma(z, z.fma(-0.5f, 1f));
                    FloatVector s =
                            sp.blend(cp, q.and(1).compare(VectorOperators.NE, 0).cast(S));
                    s = s.blend(s.neg(), q.and(2).compare(VectorOperators.NE, 0).cast(S));
                    s.mul(s)
                            .fma(FloatVector.broadcast(S, inv), v)
                            .intoMemorySegment(dst, o + 4L * i, ByteOrder.nativeOrder());
                    if (ax.abs()
                            .compare(VectorOperators.GT, FloatMath.TRIG_EXACT_LIMIT)
                            .anyTrue()) {
                        for (int j = i; j < i + S.length(); j++) { // recomputed from v, still in place
                            float vj = v.lane(j - i), sj = FloatMath.sin(a * vj);
                            dst.set(CpuTensor.F32, o + 4L * j, Math.fma(sj * sj, inv, vj));
                        }
                    }
                }
                for (; i < n; i++) {
                    float v = dst.get(CpuTensor.F32, o + 4L * i);
                    float s = FloatMath.sin(a * v);
                    dst.set(CpuTensor.F32, o + 4L * i, Math.fma(s * s, inv, v));
                }
            }
        });
    }
}
