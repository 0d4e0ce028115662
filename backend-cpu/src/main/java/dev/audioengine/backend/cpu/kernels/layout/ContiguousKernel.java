package dev.audioengine.backend.cpu.kernels.layout;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies a strided view of any dtype into row-major order. Plain types move whole rows at once
 * when the last axis is unit-stride, in tiles ({@link TiledTranspose}) when another axis is, and
 * element by element otherwise; block-quantized rows move as whole blocks, which needs each row
 * to be contiguous.
 */
public final class ContiguousKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        Tensor x = node.input(0);
        return !x.dtype().isQuantized() || x.rank() == 0 || x.stride(-1) == 1;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor x = in[0];
        DType dt = x.dtype();
        int rows = Rows.count(out), n = (int) out.dims()[3];
        long rowBytes = dt.bytesFor(n);
        int es = dt.isQuantized() ? 0 : dt.blockBytes();
        boolean wholeRows = dt.isQuantized() || Rows.unitStride(x);
        int unitAxis = TiledTranspose.unitStrideAxis(x);
        if (!wholeRows && unitAxis >= 0) return TiledTranspose.bind(x, out, unitAxis, es, ctx);
        long s = x.strides()[3];
        MemorySegment src = x.segment(), dst = out.segment();
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            for (int r = from; r < to; r++) {
                long srcByte = x.base() + dt.bytesFor(Rows.offset(x, r)), dstByte = out.base() + r * rowBytes;
                if (wholeRows) {
                    MemorySegment.copy(src, srcByte, dst, dstByte, rowBytes);
                    continue;
                }
                switch (es) {
                    case 4 -> {
                        for (int i = 0; i < n; i++)
                            dst.set(
                                    ValueLayout.JAVA_INT_UNALIGNED,
                                    dstByte + 4L * i,
                                    src.get(ValueLayout.JAVA_INT_UNALIGNED, srcByte + 4L * i * s));
                    }
                    case 2 -> {
                        for (int i = 0; i < n; i++)
                            dst.set(
                                    ValueLayout.JAVA_SHORT_UNALIGNED,
                                    dstByte + 2L * i,
                                    src.get(ValueLayout.JAVA_SHORT_UNALIGNED, srcByte + 2L * i * s));
                    }
                    default -> {
                        for (int i = 0; i < n; i++)
                            dst.set(
                                    ValueLayout.JAVA_BYTE,
                                    dstByte + i,
                                    src.get(ValueLayout.JAVA_BYTE, srcByte + i * s));
                    }
                }
            }
        });
    }
}
