package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.linear.ArrayMatrix;
import dev.audioengine.backend.cpu.kernels.linear.Gemm;
import dev.audioengine.backend.cpu.kernels.linear.LaneSum;
import dev.audioengine.backend.cpu.kernels.linear.MatrixSink;
import dev.audioengine.backend.cpu.kernels.linear.MatrixSource;
import dev.audioengine.backend.cpu.kernels.linear.PackedPanels;
import dev.audioengine.backend.cpu.kernels.linear.TensorMatrix;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * One LSTM layer, PyTorch's gate order (i, f, g, o): x [B, T, I], w_ih [4H, I], w_hh [4H, H],
 * b_ih, b_hh [4H], h0, c0 [B, H] → [2, B, T, H] (hidden sequence, then cell sequence).
 * The input projection x·w_ihᵀ for every step is one GEMM up front; the recurrence then needs
 * only h·w_hhᵀ per step, split over workers by gate rows when a step is big enough to pay for
 * the hand-off.
 * <p>
 * Streaming models run one step per graph run, so nothing here may cost more per run than the
 * step itself: constant weights are packed once at compile time ({@link PackedPanels}: the step
 * is then a few-row product with no lane sums), a w_hh that is a graph input is read in place
 * when its rows are unit-stride (copying its 4H·H values each run cost more than the step),
 * and the gate activations run as vector lanes.
 */
public final class LstmKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    /** Multiply-adds per step below which the recurrence stays on one thread. */
    private static final long PARALLEL_STEP_WORK = 1 << 17;

    @Override
    public boolean supports(Tensor node) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor x = in[0], wIh = in[1], wHh = in[2], bIh = in[3], bHh = in[4], h0 = in[5], c0 = in[6];
        int batch = (int) x.dim(0),
                steps = (int) x.dim(1),
                inputs = (int) x.dim(2),
                hidden = (int) wHh.dim(1),
                g4 = 4 * hidden;
        float[] gx = new float[batch * steps * g4];
        Gemm gemm = new Gemm(ctx.pool(), steps, g4, inputs, ctx.scratch());
        MatrixSource w = new TensorMatrix(wIh, 0, g4, inputs, wIh.stride(0), wIh.stride(1));
        MatrixSource[] xs = new MatrixSource[batch];
        MatrixSink[] sinks = new MatrixSink[batch];
        for (int b = 0; b < batch; b++) {
            xs[b] = new TensorMatrix(x, x.offset(0, b, 0, 0), steps, inputs, x.stride(1), x.stride(2));
            sinks[b] = new MatrixSink.Array(gx, b * steps * g4, g4);
        }
        float[] h = new float[batch * hidden],
                c = new float[batch * hidden],
                gates = new float[batch * g4],
                tanhCell = new float[hidden];
        // constant weights (the usual case) are packed once here; graph inputs are read each run
        PackedPanels inputPacked = PackedPanels.worthPacking(node.input(1), steps, g4, inputs)
                ? ctx.panels().sharedOrOwn(wIh, g4, inputs, wIh.stride(0), wIh.stride(1))
                : null;
        PackedPanels recurrentPacked = PackedPanels.worthPacking(node.input(2), batch, g4, hidden)
                ? ctx.panels().sharedOrOwn(wHh, g4, hidden, wHh.stride(0), wHh.stride(1))
                : null;
        Recurrent recurrent = recurrentPacked == null ? Recurrent.of(wHh, g4, hidden) : null;
        Gemm stepGemm = recurrentPacked == null ? null : new Gemm(ctx.pool(), batch, g4, hidden, ctx.scratch());
        MatrixSource hRows = new ArrayMatrix(h, 0, batch, hidden, hidden);
        MatrixSink gateRows = new MatrixSink.Array(gates, 0, g4);
        boolean constantBias = CpuKernel.isConstant(node.input(3)) && CpuKernel.isConstant(node.input(4));
        float[] bias = new float[g4];
        if (constantBias) sumBiases(bIh, bHh, bias);
        boolean parallel =
                (long) batch * g4 * hidden >= PARALLEL_STEP_WORK && ctx.pool().threads() > 1;
        MemorySegment os = out.segment();
        long cellPlane = (long) batch * steps * hidden;
        return () -> {
            for (int b = 0; b < batch; b++) {
                if (inputPacked != null) gemm.multiply(xs[b], inputPacked, sinks[b]);
                else gemm.multiply(xs[b], w, sinks[b]);
            }
            if (recurrent != null) recurrent.refresh();
            if (!constantBias) sumBiases(bIh, bHh, bias);
            for (int b = 0; b < batch; b++)
                for (int j = 0; j < hidden; j++) {
                    h[b * hidden + j] = h0.getFloat(h0.offset(0, 0, b, j));
                    c[b * hidden + j] = c0.getFloat(c0.offset(0, 0, b, j));
                }
            for (int t = 0; t < steps; t++) {
                int step = t;
                if (recurrentPacked != null) {
                    stepGemm.multiply(hRows, recurrentPacked, gateRows);
                    addInputAndBias(step, batch, steps, g4, gx, bias, gates);
                } else if (parallel) {
                    ctx.pool()
                            .parallelRanges(
                                    g4,
                                    (from, to) -> gateRows(
                                            step, from, to, batch, steps, hidden, gx, bias, recurrent, h, gates));
                } else {
                    gateRows(step, 0, g4, batch, steps, hidden, gx, bias, recurrent, h, gates);
                }
                for (int b = 0; b < batch; b++) {
                    long at = out.base() + (((long) b * steps + t) * hidden) * 4;
                    cellUpdate(gates, b * g4, c, h, b * hidden, hidden, tanhCell, os, at, at + cellPlane * 4);
                }
            }
        };
    }

    private static void sumBiases(CpuTensor bIh, CpuTensor bHh, float[] bias) {
        for (int r = 0; r < bias.length; r++)
            bias[r] = bIh.getFloat(bIh.offset(0, 0, 0, r)) + bHh.getFloat(bHh.offset(0, 0, 0, r));
    }

    /** gates[b, r] += gx[b, t, r] + bias[r], after the packed product wrote h[b] · w_hh[r] there. */
    private static void addInputAndBias(int t, int batch, int steps, int g4, float[] gx, float[] bias, float[] gates) {
        for (int b = 0; b < batch; b++) {
            int gb = b * g4, xb = (b * steps + t) * g4, r = 0;
            for (int upper = S.loopBound(g4); r < upper; r += L) {
                FloatVector v = FloatVector.fromArray(S, gx, xb + r).add(FloatVector.fromArray(S, bias, r));
                FloatVector.fromArray(S, gates, gb + r).add(v).intoArray(gates, gb + r);
            }
            for (; r < g4; r++) gates[gb + r] += gx[xb + r] + bias[r];
        }
    }

    /** gates[b, r] = gx[b, t, r] + bias[r] + h[b] · w_hh[r] for gate rows [from, to). */
    private static void gateRows(
            int t,
            int from,
            int to,
            int batch,
            int steps,
            int hidden,
            float[] gx,
            float[] bias,
            Recurrent w,
            float[] h,
            float[] gates) {
        int g4 = 4 * hidden;
        float[] lanes = new float[L]; // once per range, not per row
        for (int b = 0; b < batch; b++) {
            int hb = b * hidden, xb = (b * steps + t) * g4;
            for (int r = from; r < to; r++) gates[b * g4 + r] = gx[xb + r] + bias[r] + w.dot(r, h, hb, lanes);
        }
    }

    /**
     * c = f·c + i·g, h = o·tanh(c) for one batch row, written to the state and to both output
     * planes. The activations run as separate passes over the gate array, in place.
     */
    private static void cellUpdate(
            float[] gates,
            int gb,
            float[] c,
            float[] h,
            int hb,
            int hidden,
            float[] scratch,
            MemorySegment os,
            long hAt,
            long cAt) {
        int ig = gb, fg = gb + hidden, gg = gb + 2 * hidden, og = gb + 3 * hidden;
        ExpMath.sigmoidInPlace(gates, ig, gg);
        ExpMath.tanh(gates, gg, gates, gg, hidden);
        ExpMath.sigmoidInPlace(gates, og, og + hidden);
        int j = 0;
        for (int upper = S.loopBound(hidden); j < upper; j += L) {
            FloatVector cell = FloatVector.fromArray(S, gates, fg + j)
                    .mul(FloatVector.fromArray(S, c, hb + j))
                    .add(FloatVector.fromArray(S, gates, ig + j).mul(FloatVector.fromArray(S, gates, gg + j)));
            cell.intoArray(c, hb + j);
        }
        for (; j < hidden; j++) c[hb + j] = gates[fg + j] * c[hb + j] + gates[ig + j] * gates[gg + j];
        ExpMath.tanh(c, hb, scratch, 0, hidden);
        j = 0;
        for (int upper = S.loopBound(hidden); j < upper; j += L) {
            FloatVector hid = FloatVector.fromArray(S, gates, og + j).mul(FloatVector.fromArray(S, scratch, j));
            hid.intoArray(h, hb + j);
            hid.intoMemorySegment(os, hAt + j * 4L, NATIVE);
            FloatVector.fromArray(S, c, hb + j).intoMemorySegment(os, cAt + j * 4L, NATIVE);
        }
        for (; j < hidden; j++) {
            float hid = gates[og + j] * scratch[j];
            h[hb + j] = hid;
            os.set(CpuTensor.F32, hAt + j * 4L, hid);
            os.set(CpuTensor.F32, cAt + j * 4L, c[hb + j]);
        }
    }

    /**
     * w_hh as the recurrence reads it: in place when rows are unit-stride F32, else a copy made
     * at the start of each run (graph inputs may change between runs, so nothing is kept).
     */
    private static final class Recurrent {
        private final CpuTensor w;
        private final int rows, cols;
        private final MemorySegment seg;
        private final long base, rowBytes;
        private final float[] copy; // null when read in place

        private Recurrent(CpuTensor w, int rows, int cols, boolean inPlace) {
            this.w = w;
            this.rows = rows;
            this.cols = cols;
            this.copy = inPlace ? null : new float[rows * cols];
            this.seg = inPlace ? w.segment() : MemorySegment.ofArray(copy);
            this.base = inPlace ? w.base() : 0;
            this.rowBytes = 4L * (inPlace ? w.stride(0) : cols);
        }

        static Recurrent of(CpuTensor w, int rows, int cols) {
            return new Recurrent(w, rows, cols, cols <= 1 || w.stride(1) == 1);
        }

        void refresh() {
            if (copy == null) return;
            for (int r = 0; r < rows; r++)
                for (int j = 0; j < cols; j++) copy[r * cols + j] = w.getFloat(w.offset(0, 0, r, j));
        }

        /** Row r of w_hh · h[hb, hb + cols), summed in a fixed lane order (same bits in every JIT tier). */
        float dot(int r, float[] h, int hb, float[] lanes) {
            long at = base + r * rowBytes;
            FloatVector acc = FloatVector.zero(S);
            int j = 0;
            for (int upper = S.loopBound(cols); j < upper; j += L) {
                acc = FloatVector.fromMemorySegment(S, seg, at + j * 4L, NATIVE)
                        .fma(FloatVector.fromArray(S, h, hb + j), acc);
            }
            acc.intoArray(lanes, 0);
            float sum = LaneSum.of(lanes, 0);
            for (; j < cols; j++) sum += seg.get(CpuTensor.F32, at + j * 4L) * h[hb + j];
            return sum;
        }
    }
}
