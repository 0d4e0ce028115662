package dev.audioengine.backend.cpu.kernels.layout;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HalfFloats;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/**
 * F32 to and from F16, BF16, the block types (Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K) and I32, row by row.
 * F16/BF16 round to nearest even, I32 rounds like {@link Math#round(float)}, block types use
 * {@link BlockQuantization}'s quantizers (ggml's for the 32-value types, simpler ones of our own for the k-quants;
 * shared with the weight loader, so a cast and a converted weight hold the same bytes).
 */
public final class CastKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        DType from = node.input(0).dtype(), to = ((Op.Cast) node.op()).to();
        boolean blockRowsContiguous = !from.isQuantized() || node.input(0).stride(-1) == 1;
        return (from == DType.F32 || to == DType.F32) && from != DType.I8 && to != DType.I8 && blockRowsContiguous;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor x = in[0];
        DType from = x.dtype(), to = out.dtype();
        int rows = Rows.count(out), n = (int) out.dims()[3];
        long s = x.strides()[3];
        MemorySegment dst = out.segment();
        return () -> ctx.pool().parallelRanges(rows, (start, end) -> {
            float[] row = new float[n]; // one scratch row per worker chunk
            for (int r = start; r < end; r++) {
                long srcOff = Rows.offset(x, r);
                long dstByte = out.base() + to.bytesFor((long) r * n);
                if (from.isQuantized()) {
                    long srcByte = x.base() + from.bytesFor(srcOff);
                    BlockQuantization.dequantize(from, x.segment(), srcByte, row, 0, n);
                } else {
                    for (int i = 0; i < n; i++) row[i] = x.getFloat(srcOff + i * s);
                }
                switch (to) {
                    case F32 -> MemorySegment.copy(row, 0, dst, CpuTensor.F32, dstByte, n);
                    case F16 -> {
                        for (int i = 0; i < n; i++)
                            dst.set(CpuTensor.I16, dstByte + 2L * i, HalfFloats.floatToF16(row[i]));
                    }
                    case BF16 -> {
                        for (int i = 0; i < n; i++)
                            dst.set(CpuTensor.I16, dstByte + 2L * i, HalfFloats.floatToBf16(row[i]));
                    }
                    case I32 -> {
                        for (int i = 0; i < n; i++) dst.set(CpuTensor.I32, dstByte + 4L * i, Math.round(row[i]));
                    }
                    case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K ->
                        BlockQuantization.quantize(to, row, 0, n, dst, dstByte);
                    case I8 -> throw new IllegalStateException("cast to I8 is rejected by supports()");
                }
            }
        });
    }
}
