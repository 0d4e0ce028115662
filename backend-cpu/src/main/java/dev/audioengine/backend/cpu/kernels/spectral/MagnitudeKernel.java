package dev.audioengine.backend.cpu.kernels.spectral;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/** |z| of (re, im) pairs along the last axis; squares are summed in double so large values do not overflow. */
public final class MagnitudeKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor z = in[0];
        int count = Rows.count(z);
        long s = z.strides()[3];
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(count, (from, to) -> {
            for (int p = from; p < to; p++) {
                long off = Rows.offset(z, p);
                double re = z.getFloat(off), im = z.getFloat(off + s);
                dst.set(CpuTensor.F32, out.base() + 4L * p, (float) Math.sqrt(re * re + im * im));
            }
        });
    }
}
