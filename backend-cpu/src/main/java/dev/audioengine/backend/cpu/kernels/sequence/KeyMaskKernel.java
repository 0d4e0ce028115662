package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The additive attention mask of a fixed-capacity cache holding {@code length} keys (see Op.KeyMask): [Tq, Tk] for
 * one length, [B, 1, Tq, Tk] for B lengths (a batch of caches, element b masked by length[b]).
 */
public final class KeyMaskKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        boolean causal = ((Op.KeyMask) node.op()).causal();
        int batches = (int) out.dims()[0], tq = (int) out.dims()[2], tk = (int) out.dims()[3];
        CpuTensor length = in[0];
        long lengthStride = length.strides()[3];
        float[] row = new float[tk];
        return () -> {
            for (int b = 0; b < batches; b++) {
                long len = length.getInt(b * lengthStride);
                for (int i = 0; i < tq; i++) {
                    long visible = causal ? len - (tq - 1 - i) : len; // keys [0, visible) are seen
                    int seen = (int) Math.max(0, Math.min(tk, visible));
                    Arrays.fill(row, 0, seen, 0f);
                    Arrays.fill(row, seen, tk, Float.NEGATIVE_INFINITY);
                    MemorySegment.copy(
                            row, 0, out.segment(), CpuTensor.F32, out.base() + (((long) b * tq + i) * tk) * 4, tk);
                }
            }
        };
    }
}
