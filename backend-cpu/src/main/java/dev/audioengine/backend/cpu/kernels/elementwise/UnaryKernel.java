package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;

/** Elementwise activations (every {@link Op.UnaryKind}) through {@link UnaryMath}. */
public final class UnaryKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return node.input(0).dtype() == DType.F32;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Unary op = (Op.Unary) node.op();
        return ElementwiseDriver.bind(in[0], out, ctx, UnaryMath.span(op.kind(), op.alpha()));
    }
}
