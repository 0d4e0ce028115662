package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Tensor;

/** Placeholder until this family's kernel lands: reports the op as unsupported. */
final class ConcatKernel implements CpuKernel {
    @Override public boolean supports(Tensor node) { return false; }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        throw new IllegalStateException("unsupported on the CPU: " + node);
    }
}
