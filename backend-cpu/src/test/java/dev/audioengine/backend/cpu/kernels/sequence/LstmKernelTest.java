package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.KernelHarness;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * LSTM against a float64 recurrence written from PyTorch's equations (gate order i, f, g, o),
 * with x given directly or as the [B, T, I] view of a [T, B, I] input. Weights are scaled by
 * 1/sqrt(fan-in) as trained layers are; the recurrence is contractive, so float32 rounding
 * stays ~1e-7 relative per value over hundreds of steps: NMSE bound 1e-10.
 */
class LstmKernelTest {
    private static final KernelHarness H = new KernelHarness();
    private static final double BOUND = 1e-10;

    @AfterAll
    static void close() {
        H.close();
    }

    @Test
    void oddSizes() {
        int[] sizes = {1, 7, 33};
        for (int n = 0; n < 20; n++) {
            check(
                    1 + H.random.nextInt(3),
                    sizes[H.random.nextInt(3)],
                    sizes[H.random.nextInt(3)],
                    new int[] {1, 7, 33, 64}[H.random.nextInt(4)],
                    H.random.nextBoolean(),
                    n % 2 == 0);
        }
    }

    @Test
    void longSequenceWideHiddenRunsTheParallelRecurrence() {
        check(2, 257, 40, 257, true, false);
        check(1, 300, 64, 64, false, false);
    }

    /** Constant weights are packed at compile time (the step is a few-row product); weights fed as inputs are read each run. */
    @Test
    void constantAndInputWeightsOneStepAtATime() {
        for (boolean constants : new boolean[] {true, false}) {
            check(1, 1, 128, 128, false, constants); // Silero's streaming step
            check(3, 1, 7, 33, false, constants);
            check(5, 2, 33, 17, true, constants); // more batch rows than the few-row kernel's four
        }
    }

    private static void check(int b, int t, int in, int hid, boolean timeMajorX, boolean inputWeights) {
        double[] x = H.gaussian(b * t * in);
        double[] wIh = scaled(H.gaussian(4 * hid * in), in), wHh = scaled(H.gaussian(4 * hid * hid), hid);
        double[] bIh = H.gaussian(4 * hid),
                bHh = H.gaussian(4 * hid),
                h0 = H.gaussian(b * hid),
                c0 = H.gaussian(b * hid);
        GraphBuilder g = new GraphBuilder();
        Map<String, HostTensor> inputs = new HashMap<>();
        Tensor xv;
        if (timeMajorX) {
            float[] stored = new float[x.length];
            for (int bi = 0; bi < b; bi++)
                for (int ti = 0; ti < t; ti++)
                    for (int i = 0; i < in; i++) {
                        stored[(ti * b + bi) * in + i] = (float) x[(bi * t + ti) * in + i];
                    }
            inputs.put("x", HostTensor.ofFloats(Shape.of(t, b, in), stored));
            xv = g.permute(g.input("x", Shape.of(t, b, in)), 1, 0, 2);
        } else {
            inputs.put("x", HostTensor.ofFloats(Shape.of(b, t, in), KernelHarness.floats(x)));
            xv = g.input("x", Shape.of(b, t, in));
        }
        Tensor[] w = inputWeights
                ? new Tensor[] {
                    in(g, inputs, "w_ih", wIh, 4 * hid, in),
                    in(g, inputs, "w_hh", wHh, 4 * hid, hid),
                    in(g, inputs, "b_ih", bIh, 4 * hid),
                    in(g, inputs, "b_hh", bHh, 4 * hid)
                }
                : new Tensor[] {c(g, wIh, 4 * hid, in), c(g, wHh, 4 * hid, hid), c(g, bIh, 4 * hid), c(g, bHh, 4 * hid)
                };
        Tensor y = g.lstm(xv, w[0], w[1], w[2], w[3], c(g, h0, b, hid), c(g, c0, b, hid));
        float[] got;
        try {
            got = H.run(g.build(y), inputs, BOUND);
        } finally {
            inputs.values().forEach(HostTensor::close);
        }
        H.assertClose(
                String.format(
                        "lstm B%d T%d I%d H%d timeMajorX=%b inputWeights=%b", b, t, in, hid, timeMajorX, inputWeights),
                got,
                reference(x, wIh, wHh, bIh, bHh, h0, c0, b, t, in, hid),
                BOUND);
    }

    private static Tensor c(GraphBuilder g, double[] v, long... dims) {
        return g.constant(HostTensor.ofFloats(Shape.of(dims), KernelHarness.floats(v)));
    }

    private static Tensor in(GraphBuilder g, Map<String, HostTensor> inputs, String name, double[] v, long... dims) {
        inputs.put(name, HostTensor.ofFloats(Shape.of(dims), KernelHarness.floats(v)));
        return g.input(name, Shape.of(dims));
    }

    private static double[] scaled(double[] v, int fanIn) {
        for (int i = 0; i < v.length; i++) v[i] /= Math.sqrt(fanIn);
        return v;
    }

    static double[] reference(
            double[] x,
            double[] wIh,
            double[] wHh,
            double[] bIh,
            double[] bHh,
            double[] h0,
            double[] c0,
            int b,
            int t,
            int in,
            int hid) {
        double[] out = new double[2 * b * t * hid];
        double[] gates = new double[4 * hid];
        for (int bi = 0; bi < b; bi++) {
            double[] h = java.util.Arrays.copyOfRange(h0, bi * hid, (bi + 1) * hid);
            double[] c = java.util.Arrays.copyOfRange(c0, bi * hid, (bi + 1) * hid);
            for (int ti = 0; ti < t; ti++) {
                for (int r = 0; r < 4 * hid; r++) {
                    double s = bIh[r] + bHh[r];
                    for (int i = 0; i < in; i++) s += wIh[r * in + i] * x[(bi * t + ti) * in + i];
                    for (int j = 0; j < hid; j++) s += wHh[r * hid + j] * h[j];
                    gates[r] = s;
                }
                for (int j = 0; j < hid; j++) {
                    double ig = sig(gates[j]),
                            fg = sig(gates[hid + j]),
                            gg = Math.tanh(gates[2 * hid + j]),
                            og = sig(gates[3 * hid + j]);
                    c[j] = fg * c[j] + ig * gg;
                    h[j] = og * Math.tanh(c[j]);
                    out[(bi * t + ti) * hid + j] = h[j];
                    out[b * t * hid + (bi * t + ti) * hid + j] = c[j];
                }
            }
        }
        return out;
    }

    private static double sig(double v) {
        return 1 / (1 + Math.exp(-v));
    }
}
