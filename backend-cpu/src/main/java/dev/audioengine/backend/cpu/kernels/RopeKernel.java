package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

import java.lang.foreign.MemorySegment;

/**
 * Rotary embedding on x [B, H, T, D]. Each run first fills cos/sin tables [T, dims/2] from the
 * positions (angles in double: pos · base^(−2i/dims)), then rotates every row's pairs, NORMAL
 * (2i, 2i+1) or NEOX (i, i + dims/2), in the output; values past dims are copied.
 */
final class RopeKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) { return true; }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Rope op = (Op.Rope) node.op();
        CpuTensor x = in[0], positions = in[1];
        int t = (int) out.dims()[2], d = (int) out.dims()[3], half = op.dims() / 2;
        boolean neox = op.mode() == Op.RopeMode.NEOX;
        double[] invFreq = new double[half];
        for (int i = 0; i < half; i++) invFreq[i] = Math.pow(op.base(), -2.0 * i / op.dims());
        float[] cos = new float[t * half], sin = new float[t * half]; // refilled every run
        int rows = Rows.count(out);
        MemorySegment dst = out.segment();
        return () -> {
            ctx.pool().parallelRanges(t, (from, to) -> {
                for (int ti = from; ti < to; ti++) {
                    double pos = positions.getInt(positions.offset(0, 0, 0, ti));
                    for (int i = 0; i < half; i++) {
                        double theta = pos * invFreq[i];
                        cos[ti * half + i] = (float) Math.cos(theta);
                        sin[ti * half + i] = (float) Math.sin(theta);
                    }
                }
            });
            ctx.pool().parallelRanges(rows, (from, to) -> {
                for (int r = from; r < to; r++) {
                    long o = out.base() + 4L * r * d;
                    Rows.gather(x, Rows.offset(x, r), d, dst, o);
                    int table = (r % t) * half;
                    for (int i = 0; i < half; i++) {
                        long a = o + 4L * (neox ? i : 2 * i), b = o + 4L * (neox ? i + half : 2 * i + 1);
                        float xa = dst.get(CpuTensor.F32, a), xb = dst.get(CpuTensor.F32, b);
                        float c = cos[table + i], s = sin[table + i];
                        dst.set(CpuTensor.F32, a, xa * c - xb * s);
                        dst.set(CpuTensor.F32, b, xa * s + xb * c);
                    }
                }
            });
        };
    }
}
