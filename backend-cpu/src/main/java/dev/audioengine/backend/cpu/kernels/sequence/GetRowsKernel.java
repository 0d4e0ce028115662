package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/**
 * Embedding lookup: out[p, :] = table[ids[p], :] as F32, dequantizing block-quantized rows and widening
 * F16/BF16. An id outside the table fails the run with the id and its position.
 */
public final class GetRowsKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        Tensor table = node.input(0);
        return table.dtype() != DType.I8 && (!table.dtype().isQuantized() || table.stride(-1) == 1);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor table = in[0], ids = in[1];
        DType dt = table.dtype();
        int vocab = (int) table.dims()[2], d = (int) table.dims()[3];
        int count = (int) ids.elements();
        long rowStride = table.strides()[2], colStride = table.strides()[3];
        boolean copyRows = dt == DType.F32 && Rows.unitStride(table);
        return () -> {
            // Checked on the calling thread first, so the error reaches the caller as thrown
            // (the worker pool would re-wrap it) and no row is written from a bad id.
            for (int p = 0; p < count; p++) {
                int id = ids.getInt(ids.offsetOfLinear(p));
                if (id < 0 || id >= vocab) {
                    throw new IndexOutOfBoundsException(
                            "get_rows: id " + id + " at position " + p + " is outside the table's " + vocab + " rows");
                }
            }
            ctx.pool()
                    .parallelRanges(
                            count, (from, to) -> copyRows(from, to, table, ids, out, rowStride, colStride, copyRows));
        };
    }

    private static void copyRows(
            int from,
            int to,
            CpuTensor table,
            CpuTensor ids,
            CpuTensor out,
            long rowStride,
            long colStride,
            boolean copyRows) {
        DType dt = table.dtype();
        int d = (int) table.dims()[3];
        MemorySegment dst = out.segment();
        float[] scratch = dt.isQuantized() ? new float[d] : null; // one per worker chunk
        for (int p = from; p < to; p++) {
            int id = ids.getInt(ids.offsetOfLinear(p));
            long o = out.base() + 4L * p * d;
            long rowOff = id * rowStride;
            if (copyRows) {
                MemorySegment.copy(table.segment(), table.base() + 4 * rowOff, dst, o, 4L * d);
            } else if (dt.isQuantized()) {
                long srcByte = table.base() + dt.bytesFor(rowOff);
                BlockQuantization.dequantize(dt, table.segment(), srcByte, scratch, 0, d);
                MemorySegment.copy(scratch, 0, dst, CpuTensor.F32, o, d);
            } else {
                for (int i = 0; i < d; i++) dst.set(CpuTensor.F32, o + 4L * i, table.getFloat(rowOff + i * colStride));
            }
        }
    }
}
