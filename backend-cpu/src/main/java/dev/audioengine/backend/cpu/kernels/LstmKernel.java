package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * One LSTM layer, PyTorch's gate order (i, f, g, o): x [B, T, I], w_ih [4H, I], w_hh [4H, H],
 * b_ih, b_hh [4H], h0, c0 [B, H] → [2, B, T, H] (hidden sequence, then cell sequence).
 * The input projection x·w_ihᵀ for every step is one GEMM up front; the recurrence then needs
 * only h·w_hhᵀ per step, split over workers by gate rows when a step is big enough to pay for
 * the hand-off.
 * <p>
 * Streaming models run one step per graph run, so nothing here may cost more per run than the
 * step itself: w_hh is read in place when its rows are unit-stride (copying its 4H·H values
 * each run cost more than the product), and the gate activations run as vector lanes.
 */
final class LstmKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final FloatVector ONE = FloatVector.broadcast(S, 1f);
    /** Multiply-adds per step below which the recurrence stays on one thread. */
    private static final long PARALLEL_STEP_WORK = 1 << 17;

    @Override
    public boolean supports(Tensor node) {
        return node.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
    }

    @Override
    public Runnable bind(Tensor node, CpuTensor out, CpuTensor[] in, KernelContext ctx) {
        CpuTensor x = in[0], wIh = in[1], wHh = in[2], bIh = in[3], bHh = in[4], h0 = in[5], c0 = in[6];
        int batch = (int) x.dim(0), steps = (int) x.dim(1), inputs = (int) x.dim(2), hidden = (int) wHh.dim(1), g4 = 4 * hidden;
        float[] gx = new float[batch * steps * g4];
        Gemm gemm = new Gemm(ctx.pool(), steps, g4, inputs);
        MatrixSource w = new TensorMatrix(wIh, 0, g4, inputs, wIh.stride(0), wIh.stride(1));
        MatrixSource[] xs = new MatrixSource[batch];
        MatrixSink[] sinks = new MatrixSink[batch];
        for (int b = 0; b < batch; b++) {
            xs[b] = new TensorMatrix(x, x.offset(0, b, 0, 0), steps, inputs, x.stride(1), x.stride(2));
            sinks[b] = new MatrixSink.Array(gx, b * steps * g4, g4);
        }
        Recurrent recurrent = Recurrent.of(wHh, g4, hidden);
        float[] bias = new float[g4];
        float[] h = new float[batch * hidden], c = new float[batch * hidden], gates = new float[batch * g4];
        boolean parallel = (long) batch * g4 * hidden >= PARALLEL_STEP_WORK && ctx.pool().threads() > 1;
        MemorySegment os = out.segment();
        long cellPlane = (long) batch * steps * hidden;
        return () -> {
            for (int b = 0; b < batch; b++) gemm.multiply(xs[b], w, sinks[b]);
            recurrent.refresh();
            for (int r = 0; r < g4; r++) bias[r] = bIh.getFloat(bIh.offset(0, 0, 0, r)) + bHh.getFloat(bHh.offset(0, 0, 0, r));
            for (int b = 0; b < batch; b++) for (int j = 0; j < hidden; j++) {
                h[b * hidden + j] = h0.getFloat(h0.offset(0, 0, b, j));
                c[b * hidden + j] = c0.getFloat(c0.offset(0, 0, b, j));
            }
            for (int t = 0; t < steps; t++) {
                int step = t;
                if (parallel) {
                    ctx.pool().parallelRanges(g4, (from, to) -> gateRows(step, from, to, batch, steps, hidden, gx, bias, recurrent, h, gates));
                } else {
                    gateRows(step, 0, g4, batch, steps, hidden, gx, bias, recurrent, h, gates);
                }
                for (int b = 0; b < batch; b++) {
                    long at = out.base() + (((long) b * steps + t) * hidden) * 4;
                    cellUpdate(gates, b * g4, c, h, b * hidden, hidden, os, at, at + cellPlane * 4);
                }
            }
        };
    }

    /** gates[b, r] = gx[b, t, r] + bias[r] + h[b] · w_hh[r] for gate rows [from, to). */
    private static void gateRows(int t, int from, int to, int batch, int steps, int hidden, float[] gx, float[] bias,
                                 Recurrent w, float[] h, float[] gates) {
        int g4 = 4 * hidden;
        for (int b = 0; b < batch; b++) {
            int hb = b * hidden, xb = (b * steps + t) * g4;
            for (int r = from; r < to; r++) gates[b * g4 + r] = gx[xb + r] + bias[r] + w.dot(r, h, hb);
        }
    }

    /** c = f·c + i·g, h = o·tanh(c) for one batch row, written to the state and to both output planes. */
    private static void cellUpdate(float[] gates, int gb, float[] c, float[] h, int hb, int hidden, MemorySegment os, long hAt, long cAt) {
        int j = 0;
        for (int upper = S.loopBound(hidden); j < upper; j += L) {
            FloatVector ig = sigmoid(FloatVector.fromArray(S, gates, gb + j));
            FloatVector fg = sigmoid(FloatVector.fromArray(S, gates, gb + hidden + j));
            FloatVector gg = tanh(FloatVector.fromArray(S, gates, gb + 2 * hidden + j));
            FloatVector og = sigmoid(FloatVector.fromArray(S, gates, gb + 3 * hidden + j));
            FloatVector cell = fg.mul(FloatVector.fromArray(S, c, hb + j)).add(ig.mul(gg));
            FloatVector hid = og.mul(tanh(cell));
            cell.intoArray(c, hb + j);
            hid.intoArray(h, hb + j);
            hid.intoMemorySegment(os, hAt + j * 4L, NATIVE);
            cell.intoMemorySegment(os, cAt + j * 4L, NATIVE);
        }
        for (; j < hidden; j++) {
            float ig = UnaryMath.apply(UnaryKind.SIGMOID, 0, gates[gb + j]), fg = UnaryMath.apply(UnaryKind.SIGMOID, 0, gates[gb + hidden + j]);
            float gg = UnaryMath.apply(UnaryKind.TANH, 0, gates[gb + 2 * hidden + j]), og = UnaryMath.apply(UnaryKind.SIGMOID, 0, gates[gb + 3 * hidden + j]);
            float cell = fg * c[hb + j] + ig * gg;
            float hid = og * UnaryMath.apply(UnaryKind.TANH, 0, cell);
            c[hb + j] = cell;
            h[hb + j] = hid;
            os.set(CpuTensor.F32, hAt + j * 4L, hid);
            os.set(CpuTensor.F32, cAt + j * 4L, cell);
        }
    }

    // small enough to inline into the loop above: a vector that crosses a call boundary is boxed
    private static FloatVector sigmoid(FloatVector v) { return ONE.div(v.neg().lanewise(VectorOperators.EXP).add(1f)); }

    private static FloatVector tanh(FloatVector v) { return v.lanewise(VectorOperators.TANH); }

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
            for (int r = 0; r < rows; r++) for (int j = 0; j < cols; j++) copy[r * cols + j] = w.getFloat(w.offset(0, 0, r, j));
        }

        /** Row r of w_hh · h[hb, hb + cols), summed in a fixed lane order (same bits in every JIT tier). */
        float dot(int r, float[] h, int hb) {
            long at = base + r * rowBytes;
            FloatVector acc = FloatVector.zero(S);
            int j = 0;
            for (int upper = S.loopBound(cols); j < upper; j += L) {
                acc = FloatVector.fromMemorySegment(S, seg, at + j * 4L, NATIVE).fma(FloatVector.fromArray(S, h, hb + j), acc);
            }
            float sum = LaneSum.of(acc);
            for (; j < cols; j++) sum += seg.get(CpuTensor.F32, at + j * 4L) * h[hb + j];
            return sum;
        }
    }
}
