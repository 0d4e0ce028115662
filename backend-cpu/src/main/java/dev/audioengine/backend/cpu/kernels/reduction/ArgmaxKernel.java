package dev.audioengine.backend.cpu.kernels.reduction;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;

/** Index of the first largest value along one axis, as I32; a NaN counts as largest (the first NaN wins). */
public final class ArgmaxKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor x = in[0];
        int axis = ((Op.Argmax) node.op()).axis() + 4 - node.input(0).rank();
        long[] d = x.dims(), od = d.clone();
        od[axis] = 1;
        int n = (int) d[axis], count = Math.toIntExact(od[0] * od[1] * od[2] * od[3]);
        long stride = x.strides()[axis];
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(count, (from, to) -> {
            for (int e = from; e < to; e++) {
                long i3 = e % od[3],
                        i2 = (e / od[3]) % od[2],
                        i1 = (e / (od[3] * od[2])) % od[1],
                        i0 = e / (od[3] * od[2] * od[1]);
                dst.set(CpuTensor.I32, out.base() + 4L * e, firstLargest(x, x.offset(i0, i1, i2, i3), stride, n));
            }
        });
    }

    /**
     * Values of a row per call of {@link #firstLargestIn}: a one-shot job runs without on-stack replacement, so one
     * loop over a decoder's 32,768 logits ran in the interpreter for as many steps as the method took to be compiled
     * by calls; in chunks it is compiled after a few.
     */
    static final int CHUNK = 512;

    /** The index of the first largest of n values from element {@code first}, {@code stride} apart (a NaN wins). */
    static int firstLargest(CpuTensor x, long first, long stride, int n) {
        int best = 0;
        float bestV = x.getFloat(first);
        for (int j = 1; j < n && !Float.isNaN(bestV); j += CHUNK) {
            int b = firstLargestIn(x, first, stride, j, Math.min(n, j + CHUNK));
            float v = x.getFloat(first + b * stride);
            // strictly larger: an equal value later is not the first largest
            if (v > bestV || Float.isNaN(v)) {
                best = b;
                bestV = v;
            }
        }
        return best;
    }

    /** The index of the first largest value (the first NaN, if any) among indices [from, to). */
    private static int firstLargestIn(CpuTensor x, long first, long stride, int from, int to) {
        int best = from;
        float bestV = x.getFloat(first + from * stride);
        for (int j = from + 1; j < to && !Float.isNaN(bestV); j++) {
            float v = x.getFloat(first + j * stride);
            if (v > bestV || Float.isNaN(v)) {
                best = j;
                bestV = v;
            }
        }
        return best;
    }
}
