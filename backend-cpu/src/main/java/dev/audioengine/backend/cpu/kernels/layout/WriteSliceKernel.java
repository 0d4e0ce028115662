package dev.audioengine.backend.cpu.kernels.layout;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/**
 * In-place write into a persistent tensor: src goes to dst[start : start + len] along the axis
 * (out is dst's own memory, so only src's elements are touched). The start is read from its
 * I32 input at run time; a write that would leave the tensor fails the run with the numbers.
 * <p>
 * A start per batch element (I32 [B], B = dst's first dimension, axis &gt; 0: a batched decoder
 * step) writes batch element b at start[b], and skips it where start[b] is negative. Every start
 * is checked before anything is written, so a failed run leaves the state as it was.
 */
public final class WriteSliceKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return node.dtype() == DType.F32
                && node.input(1).dtype() == DType.F32
                && node.rank() <= 4
                && node.isContiguous();
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        int axis = ((Op.WriteSlice) node.op()).axis() + 4 - node.rank();
        CpuTensor src = in[1];
        CpuTensor start = in.length > 2 ? in[2] : null;
        long cap = out.dims()[axis], len = src.dims()[axis];
        long[] d = src.dims(), ss = src.strides(), ds = out.strides();
        int row = (int) d[3];
        boolean rowCopy = Rows.unitStride(src) && (ds[3] == 1 || row == 1);
        String what = node.storage().name() + " " + node.shape();
        MemorySegment from = src.segment(), to = out.segment();
        // one start per batch element: the batch is the original first axis, padded axis 4 - rank (before the write's)
        boolean perBatch = start != null && start.elements() > 1;
        int batchAxis = 4 - node.rank();
        int batches = perBatch ? Math.toIntExact(start.elements()) : 1;
        if (perBatch && (batchAxis >= axis || d[batchAxis] != batches)) {
            throw new IllegalArgumentException("write_slice with " + batches + " starts into " + what
                    + " along axis " + (axis - batchAxis) + ": one start per batch element needs "
                    + d[batchAxis] + " starts and an axis after the first");
        }
        long startStride = start == null ? 0 : start.strides()[3];
        long[] shifts = new long[batches]; // element offset of each batch element's write; -1: skipped
        return () -> {
            for (int bi = 0; bi < batches; bi++) {
                long at = start == null ? 0 : start.getInt(bi * startStride);
                if (at < 0 && perBatch) {
                    shifts[bi] = -1;
                } else if (at < 0 || at + len > cap) {
                    throw new IndexOutOfBoundsException("write_slice of " + len + " at position " + at
                            + (perBatch ? " for batch element " + bi : "") + " leaves the " + cap
                            + " positions of axis " + (axis - batchAxis) + " of state " + what
                            + "; keep the start input within 0.." + (cap - len)
                            + (perBatch ? " (negative skips a batch element)" : ""));
                } else {
                    shifts[bi] = at * ds[axis];
                }
            }
            for (long a = 0; a < d[0]; a++) {
                for (long b = 0; b < d[1]; b++) {
                    for (long c = 0; c < d[2]; c++) {
                        long shift = shifts[perBatch ? (int) (batchAxis == 0 ? a : batchAxis == 1 ? b : c) : 0];
                        if (shift < 0) continue; // a skipped batch element
                        long s = src.base() + 4 * (a * ss[0] + b * ss[1] + c * ss[2]);
                        long t = out.base() + 4 * (a * ds[0] + b * ds[1] + c * ds[2] + shift);
                        if (rowCopy) {
                            MemorySegment.copy(from, s, to, t, 4L * row);
                        } else {
                            for (int i = 0; i < row; i++)
                                to.set(CpuTensor.F32, t + 4 * i * ds[3], from.get(CpuTensor.F32, s + 4 * i * ss[3]));
                        }
                    }
                }
            }
        };
    }
}
