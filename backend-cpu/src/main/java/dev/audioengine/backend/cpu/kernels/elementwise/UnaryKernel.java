package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;

/** Elementwise activations (every {@link Op.UnaryKind}) through {@link UnaryMath}. */
final class UnaryKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) { return node.input(0).dtype() == DType.F32; }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Unary op = (Op.Unary) node.op();
        return ElementwiseDriver.bind(in[0], out, ctx, UnaryMath.span(op.kind(), op.alpha()));
    }
}
