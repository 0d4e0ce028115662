package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/** Elementwise activations (every {@link Op.UnaryKind}) through {@link UnaryMath}. */
final class UnaryKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    @Override
    public boolean supports(Tensor node) { return node.input(0).dtype() == DType.F32; }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Unary op = (Op.Unary) node.op();
        return ElementwiseDriver.bind(in[0], out, ctx, (src, srcByte, dst, dstByte, n) -> {
            int i = 0;
            for (int upper = S.loopBound(n); i < upper; i += S.length()) {
                FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, ByteOrder.nativeOrder());
                UnaryMath.apply(op.kind(), op.alpha(), x).intoMemorySegment(dst, dstByte + 4L * i, ByteOrder.nativeOrder());
            }
            for (; i < n; i++) {
                dst.set(CpuTensor.F32, dstByte + 4L * i, UnaryMath.apply(op.kind(), op.alpha(), src.get(CpuTensor.F32, srcByte + 4L * i)));
            }
        });
    }
}
