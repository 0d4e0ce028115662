package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;

/**
 * One LSTM layer, PyTorch's gate order (i, f, g, o): x [B, T, I], w_ih [4H, I], w_hh [4H, H],
 * b_ih, b_hh [4H], h0, c0 [B, H] → [2, B, T, H] (hidden sequence, then cell sequence).
 * The input projection x·w_ihᵀ for every step is one GEMM up front; the recurrence then needs
 * only h·w_hhᵀ per step, split over workers by gate rows when a step is big enough to pay for
 * the hand-off.
 */
final class LstmKernel implements CpuKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
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
        float[] recurrent = new float[g4 * hidden], bias = new float[g4];
        float[] h = new float[batch * hidden], c = new float[batch * hidden], gates = new float[batch * g4];
        boolean parallel = (long) batch * g4 * hidden >= PARALLEL_STEP_WORK && ctx.pool().threads() > 1;
        MemorySegment os = out.segment();
        long cellPlane = (long) batch * steps * hidden;
        return () -> {
            for (int b = 0; b < batch; b++) gemm.multiply(xs[b], w, sinks[b]);
            for (int r = 0; r < g4; r++) {
                bias[r] = bIh.getFloat(bIh.offset(0, 0, 0, r)) + bHh.getFloat(bHh.offset(0, 0, 0, r));
                for (int j = 0; j < hidden; j++) recurrent[r * hidden + j] = wHh.getFloat(wHh.offset(0, 0, r, j));
            }
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
                    int gb = b * g4, hb = b * hidden;
                    long at = out.base() + (((long) b * steps + t) * hidden) * 4;
                    for (int j = 0; j < hidden; j++) {
                        float ig = sigmoid(gates[gb + j]), fg = sigmoid(gates[gb + hidden + j]);
                        float gg = (float) Math.tanh(gates[gb + 2 * hidden + j]), og = sigmoid(gates[gb + 3 * hidden + j]);
                        float cell = fg * c[hb + j] + ig * gg;
                        float hid = og * (float) Math.tanh(cell);
                        c[hb + j] = cell;
                        h[hb + j] = hid;
                        os.set(CpuTensor.F32, at + j * 4L, hid);
                        os.set(CpuTensor.F32, at + (cellPlane + j) * 4L, cell);
                    }
                }
            }
        };
    }

    /** gates[b, r] = gx[b, t, r] + bias[r] + h[b] · w_hh[r] for gate rows [from, to). */
    private static void gateRows(int t, int from, int to, int batch, int steps, int hidden, float[] gx, float[] bias,
                                 float[] w, float[] h, float[] gates) {
        int g4 = 4 * hidden;
        for (int b = 0; b < batch; b++) {
            int hb = b * hidden, xb = (b * steps + t) * g4;
            for (int r = from; r < to; r++) {
                int wr = r * hidden, j = 0;
                FloatVector acc = FloatVector.zero(S);
                for (int upper = S.loopBound(hidden); j < upper; j += S.length()) {
                    acc = FloatVector.fromArray(S, w, wr + j).fma(FloatVector.fromArray(S, h, hb + j), acc);
                }
                float sum = acc.reduceLanes(VectorOperators.ADD);
                for (; j < hidden; j++) sum += w[wr + j] * h[hb + j];
                gates[b * g4 + r] = gx[xb + r] + bias[r] + sum;
            }
        }
    }

    private static float sigmoid(float v) { return (float) (1 / (1 + Math.exp(-v))); }
}
