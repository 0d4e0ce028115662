package dev.audioengine.backend.cpu.kernels.layout;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.Rows;
import java.lang.foreign.MemorySegment;

/**
 * Zero (constant), reflect and replicate padding on any axes. bind() turns each padded axis
 * into a table from output index to source index (−1 for the constant fill); a run then copies
 * the middle of each row in one piece and fills or looks up the edges.
 */
public final class PadKernel implements CpuKernel {
    @Override
    public boolean supports(Tensor node) {
        return true;
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        Op.Pad op = (Op.Pad) node.op();
        CpuTensor x = in[0];
        int shift = 4 - node.rank();
        int[][] source = new int[4][];
        for (int a = 0; a < 4; a++) {
            long before = a < shift ? 0 : op.before()[a - shift];
            source[a] = sourceIndex(op.mode(), (int) out.dims()[a], (int) before, (int) x.dims()[a]);
        }
        int n = (int) out.dims()[3], inner = (int) x.dims()[3];
        int middleStart = shift == 4 ? 0 : (int) op.before()[3 - shift];
        int rows = Rows.count(out);
        long[] d = out.dims(), s = x.strides();
        float value = op.value();
        MemorySegment dst = out.segment(), src = x.segment();
        return () -> ctx.pool().parallelRanges(rows, (from, to) -> {
            for (int r = from; r < to; r++) {
                int i0 = source[0][(int) (r / (d[1] * d[2]))],
                        i1 = source[1][(int) ((r / d[2]) % d[1])],
                        i2 = source[2][(int) (r % d[2])];
                row(x, source[3], i0, i1, i2, s, dst, out.base() + 4L * r * n, n, middleStart, inner, value);
            }
        });
    }

    /**
     * One output row. A method of its own, not the loop's body: a one-shot job runs without on-stack replacement, so
     * a loop runs to its end in the tier its call started in, and a pad over thousands of rows ran whole in the
     * interpreter; called per row, this is compiled after a few.
     */
    private static void row(
            CpuTensor x,
            int[] columns,
            int i0,
            int i1,
            int i2,
            long[] s,
            MemorySegment dst,
            long o,
            int n,
            int middleStart,
            int inner,
            float value) {
        if (i0 < 0 || i1 < 0 || i2 < 0) {
            for (int j = 0; j < n; j++) dst.set(CpuTensor.F32, o + 4L * j, value);
            return;
        }
        long rowOff = i0 * s[0] + i1 * s[1] + i2 * s[2];
        for (int j = 0; j < middleStart; j++) dst.set(CpuTensor.F32, o + 4L * j, edge(x, rowOff, columns[j], value));
        Rows.gather(x, rowOff, inner, dst, o + 4L * middleStart);
        for (int j = middleStart + inner; j < n; j++)
            dst.set(CpuTensor.F32, o + 4L * j, edge(x, rowOff, columns[j], value));
    }

    private static float edge(CpuTensor x, long rowOff, int j, float value) {
        return j < 0 ? value : x.segment().get(CpuTensor.F32, x.base() + 4 * (rowOff + j * x.strides()[3]));
    }

    /** For each output index along one axis, the input index it reads, or −1 for the ZERO fill. */
    private static int[] sourceIndex(Op.PadMode mode, int outLen, int before, int inLen) {
        int[] map = new int[outLen];
        for (int i = 0; i < outLen; i++) {
            int j = i - before;
            if (j < 0 || j >= inLen) {
                j = switch (mode) {
                    case ZERO -> -1;
                    case REFLECT -> j < 0 ? -j : 2 * (inLen - 1) - j;
                    case REPLICATE -> j < 0 ? 0 : inLen - 1;
                };
            }
            map[i] = j;
        }
        return map;
    }
}
