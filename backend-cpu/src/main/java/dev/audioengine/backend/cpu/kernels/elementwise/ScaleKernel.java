package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/** y = x · scale + bias. */
public final class ScaleKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    @Override
    public boolean supports(Tensor node) {
        return node.input(0).dtype() == DType.F32;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Scale op = (Op.Scale) node.op();
        float scale = op.scale(), bias = op.bias();
        return ElementwiseDriver.bind(in[0], out, ctx, (src, srcByte, dst, dstByte, n) -> {
            FloatVector vs = FloatVector.broadcast(S, scale), vb = FloatVector.broadcast(S, bias);
            int i = 0;
            for (int upper = S.loopBound(n); i < upper; i += S.length()) {
                FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, ByteOrder.nativeOrder());
                x.mul(vs).add(vb).intoMemorySegment(dst, dstByte + 4L * i, ByteOrder.nativeOrder());
            }
            for (; i < n; i++)
                dst.set(CpuTensor.F32, dstByte + 4L * i, src.get(CpuTensor.F32, srcByte + 4L * i) * scale + bias);
        });
    }
}
