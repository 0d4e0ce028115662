package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;

/** The additive attention mask of a fixed-capacity cache holding {@code length} keys (see Op.KeyMask). */
public final class KeyMaskKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        boolean causal = ((Op.KeyMask) node.op()).causal();
        int tq = (int) out.dims()[2], tk = (int) out.dims()[3];
        CpuTensor length = in[0];
        return () -> {
            long len = length.getInt(0);
            for (int i = 0; i < tq; i++) {
                long visible = causal ? len - (tq - 1 - i) : len; // keys [0, visible) are seen
                for (int j = 0; j < tk; j++)
                    out.setFloat((long) i * tk + j, j < visible ? 0f : Float.NEGATIVE_INFINITY);
            }
        };
    }
}
