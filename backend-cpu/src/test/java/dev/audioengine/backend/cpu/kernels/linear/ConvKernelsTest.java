package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.KernelHarness;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Conv1d and ConvTranspose1d against float64 loops written straight from PyTorch's formulas,
 * on random geometries (stride, padding, dilation, groups, bias, odd lengths) and on x given as
 * a transposed view. F32 only, sums of at most a few hundred products: NMSE 1e-10 (see
 * MatMulKernelTest for why that bound is both safe and tight).
 */
class ConvKernelsTest {
    private static final KernelHarness H = new KernelHarness();
    private static final double BOUND = 1e-10;

    @AfterAll
    static void close() {
        H.close();
    }

    record Case(
            int batch,
            int cin,
            int cout,
            int t,
            int k,
            int stride,
            int pad,
            int dil,
            int groups,
            int outPad,
            boolean bias,
            boolean transposedX,
            boolean permutedW) {}

    @Test
    void conv1dRandomGeometries() {
        int[] lengths = {1, 7, 33, 257};
        int done = 0;
        while (done < 60) {
            Case c = randomCase(lengths[H.random.nextInt(4)], false);
            long tout = (c.t + 2L * c.pad - (long) c.dil * (c.k - 1) - 1) / c.stride + 1;
            if (c.t + 2L * c.pad - (long) c.dil * (c.k - 1) - 1 < 0 || tout < 1) continue;
            conv(c);
            done++;
        }
    }

    @Test
    void conv1dDepthwise() {
        for (int t : new int[] {1, 7, 33, 257})
            for (int k : new int[] {1, 3, 7})
                for (int stride : new int[] {1, 2}) {
                    int pad = H.random.nextInt(k), dil = 1 + H.random.nextInt(2);
                    if (t + 2 * pad - dil * (k - 1) - 1 < 0) continue;
                    int ch = 1 + H.random.nextInt(40);
                    conv(new Case(
                            1 + H.random.nextInt(2),
                            ch,
                            ch,
                            t,
                            k,
                            stride,
                            pad,
                            dil,
                            ch,
                            0,
                            H.random.nextBoolean(),
                            H.random.nextBoolean(),
                            H.random.nextBoolean()));
                }
    }

    /** The im2col panels the GEMM packs: panels hanging over both padded edges, strides and dilations, both x layouts. */
    @Test
    void conv1dIm2colPanelsAtTheEdges() {
        for (int t : new int[] {1, 7, 33, 257})
            for (int stride : new int[] {1, 3})
                for (boolean transposedX : new boolean[] {false, true}) {
                    int k = 5, dil = 2, pad = 9; // pad > t for short inputs: whole panel columns read only padding
                    conv(new Case(1, 7, 13, t, k, stride, pad, dil, 1, 0, false, transposedX, false));
                    conv(new Case(
                            2, 33, 40, t, 3, stride, 1, 1, 1, 0, true, transposedX, false)); // several 32-wide panels
                }
    }

    @Test
    void conv1dLargeChannels() {
        conv(new Case(2, 64, 96, 300, 5, 1, 2, 1, 1, 0, true, false, false));
        conv(new Case(1, 3, 1, 257, 7, 1, 3, 2, 1, 0, true, true, true)); // M = 1: the mat-vec path
        conv(new Case(1, 512, 80, 33, 3, 1, 1, 1, 1, 0, false, false, false)); // depth 1536 spans several k slices
        conv(new Case(1, 48, 40, 33, 3, 2, 1, 1, 4, 0, true, false, true)); // weights as a permuted view
    }

    /**
     * Stride-1 single-group convolutions, which take the windowed path with 512-bit vectors: output channels that leave
     * a partial 12-row panel, lengths that leave a partial 32-column panel, dilations, padding wider than the input,
     * input channels × taps over 1024 (several channel slices, the last partial), batches.
     */
    @Test
    void conv1dWindowedPanels() {
        conv(new Case(1, 5, 12, 32, 3, 1, 1, 1, 1, 0, false, false, false));
        conv(new Case(2, 7, 13, 33, 3, 1, 1, 1, 1, 0, true, false, false));
        conv(new Case(1, 9, 25, 257, 7, 1, 9, 3, 1, 0, true, false, false));
        conv(new Case(1, 11, 37, 101, 11, 1, 25, 5, 1, 0, false, false, false));
        conv(new Case(1, 3, 14, 40, 5, 1, 40, 1, 1, 0, true, false, false)); // pad 40 > t: whole windows of padding
        conv(new Case(
                2, 200, 19, 75, 7, 1, 3, 1, 1, 0, true, false,
                false)); // 1400 (ci, k) pairs: two slices, the last partial
        conv(new Case(1, 130, 24, 64, 11, 1, 0, 2, 1, 0, false, false, true)); // no padding, permuted weights
    }

    /**
     * Convolutions the DFT path takes (each case asserts it does): Kokoro's dilated generator shape, odd channel counts
     * and lengths (partial panels, a last block cut at Tout), padding wider than the dilation, batches with bias, x as a
     * transposed view and weights as a permuted one, and more blocks than one group of {@link Conv1dSpectral#BLOCKS}.
     */
    @Test
    void conv1dSpectral() {
        Case[] cases = {
            new Case(1, 128, 128, 700, 11, 1, 25, 5, 1, 0, true, false, false),
            new Case(2, 96, 80, 301, 7, 1, 3, 1, 1, 0, true, false, false),
            new Case(1, 64, 112, 257, 9, 1, 0, 2, 1, 0, false, true, true),
            new Case(1, 32, 48, 2500, 11, 1, 5, 1, 1, 0, true, false, false),
            new Case(1, 72, 60, 190, 11, 1, 30, 3, 1, 0, false, false, false),
        };
        for (Case c : cases) {
            int tout = c.t + 2 * c.pad - c.dil * (c.k - 1);
            var g = new Conv1dKernel.Geometry(c.batch, c.cin, c.cout, c.t, c.k, tout, 1, c.pad, c.dil, 1);
            if (Conv1dSpectral.plan(g) == null) throw new AssertionError("the DFT path declines " + c);
            conv(c);
        }
        // where direct convolution is cheaper the plan declines: three taps, few channels, short outputs
        if (Conv1dSpectral.plan(new Conv1dKernel.Geometry(1, 256, 256, 3000, 3, 3000, 1, 1, 1, 1)) != null
                || Conv1dSpectral.plan(new Conv1dKernel.Geometry(1, 8, 8, 3000, 11, 3000, 1, 5, 1, 1)) != null
                || Conv1dSpectral.plan(new Conv1dKernel.Geometry(1, 256, 256, 40, 11, 40, 1, 5, 1, 1)) != null) {
            throw new AssertionError("the DFT path takes a convolution it should leave to the direct ones");
        }
    }

    @Test
    void convTransposeRandomGeometries() {
        int[] lengths = {1, 7, 33, 257};
        int done = 0;
        while (done < 60) {
            Case c = randomCase(lengths[H.random.nextInt(4)], true);
            long tout = (c.t - 1L) * c.stride - 2L * c.pad + (long) c.dil * (c.k - 1) + c.outPad + 1;
            if (tout < 1) continue;
            convTranspose(c);
            done++;
        }
        convTranspose(new Case(1, 64, 32, 100, 16, 8, 4, 1, 1, 0, true, false, false)); // vocoder-style upsampling
        convTranspose(new Case(2, 48, 48, 33, 4, 2, 1, 1, 48, 1, true, true, false));
        convTranspose(new Case(1, 24, 36, 33, 5, 3, 2, 2, 3, 1, false, false, true)); // weights as a permuted view
    }

    private static Case randomCase(int t, boolean transposed) {
        int groups = new int[] {1, 1, 2, 3}[H.random.nextInt(4)];
        int cin = groups * (1 + H.random.nextInt(9)), cout = groups * (1 + H.random.nextInt(9));
        int k = 1 + H.random.nextInt(7), stride = 1 + H.random.nextInt(3), dil = 1 + H.random.nextInt(3);
        int pad = H.random.nextInt(4);
        int outPad = transposed ? H.random.nextInt(Math.max(stride, dil)) : 0;
        return new Case(
                1 + H.random.nextInt(2),
                cin,
                cout,
                t,
                k,
                stride,
                pad,
                dil,
                groups,
                outPad,
                H.random.nextBoolean(),
                H.random.nextBoolean(),
                H.random.nextBoolean());
    }

    private static void conv(Case c) {
        int cinG = c.cin / c.groups, coutG = c.cout / c.groups;
        double[] x = H.gaussian(c.batch * c.cin * c.t), w = H.gaussian(c.cout * cinG * c.k), b = H.gaussian(c.cout);
        GraphBuilder g = new GraphBuilder();
        Tensor xv = xInput(g, c);
        Tensor wt = weights(g, w, c.cout, cinG, c.k, c.permutedW);
        Tensor bt = c.bias ? g.constant(HostTensor.ofFloats(Shape.of(c.cout), KernelHarness.floats(b))) : null;
        Tensor y = g.conv1d(xv, wt, bt, c.stride, c.pad, c.dil, c.groups);
        int tout = (int) y.dim(2);
        double[] want = new double[c.batch * c.cout * tout];
        for (int bb = 0; bb < c.batch; bb++)
            for (int co = 0; co < c.cout; co++)
                for (int t = 0; t < tout; t++) {
                    int gr = co / coutG;
                    double s = c.bias ? b[co] : 0;
                    for (int ci = 0; ci < cinG; ci++)
                        for (int kk = 0; kk < c.k; kk++) {
                            int pos = t * c.stride - c.pad + kk * c.dil;
                            if (pos >= 0 && pos < c.t)
                                s += w[(co * cinG + ci) * c.k + kk] * x[(bb * c.cin + gr * cinG + ci) * c.t + pos];
                        }
                    want[(bb * c.cout + co) * tout + t] = s;
                }
        H.assertClose("conv1d " + c, runWithX(g, y, x, c), want, BOUND);
    }

    private static void convTranspose(Case c) {
        int cinG = c.cin / c.groups, coutG = c.cout / c.groups;
        double[] x = H.gaussian(c.batch * c.cin * c.t), w = H.gaussian(c.cin * coutG * c.k), b = H.gaussian(c.cout);
        GraphBuilder g = new GraphBuilder();
        Tensor xv = xInput(g, c);
        Tensor wt = weights(g, w, c.cin, coutG, c.k, c.permutedW);
        Tensor bt = c.bias ? g.constant(HostTensor.ofFloats(Shape.of(c.cout), KernelHarness.floats(b))) : null;
        Tensor y = g.convTranspose1d(xv, wt, bt, c.stride, c.pad, c.outPad, c.dil, c.groups);
        int tout = (int) y.dim(2);
        double[] want = new double[c.batch * c.cout * tout];
        for (int bb = 0; bb < c.batch; bb++) {
            if (c.bias)
                for (int co = 0; co < c.cout; co++)
                    for (int t = 0; t < tout; t++) want[(bb * c.cout + co) * tout + t] = b[co];
            for (int ci = 0; ci < c.cin; ci++)
                for (int co = 0; co < coutG; co++)
                    for (int kk = 0; kk < c.k; kk++) {
                        int gr = ci / cinG;
                        for (int i = 0; i < c.t; i++) {
                            int pos = i * c.stride - c.pad + kk * c.dil;
                            if (pos < 0 || pos >= tout) continue;
                            want[(bb * c.cout + gr * coutG + co) * tout + pos] +=
                                    x[(bb * c.cin + ci) * c.t + i] * w[(ci * coutG + co) * c.k + kk];
                        }
                    }
        }
        H.assertClose("conv_transpose1d " + c, runWithX(g, y, x, c), want, BOUND);
    }

    /** w [a, b, c] as given, or as the permute(2, 1, 0) view of a [c, b, a] constant (no axis evenly spaced). */
    private static Tensor weights(GraphBuilder g, double[] w, int a, int b, int c, boolean permuted) {
        if (!permuted) return g.constant(HostTensor.ofFloats(Shape.of(a, b, c), KernelHarness.floats(w)));
        float[] stored = new float[w.length];
        for (int i = 0; i < a; i++)
            for (int j = 0; j < b; j++)
                for (int k = 0; k < c; k++) stored[(k * b + j) * a + i] = (float) w[(i * b + j) * c + k];
        return g.permute(g.constant(HostTensor.ofFloats(Shape.of(c, b, a), stored)), 2, 1, 0);
    }

    /** x [B, Cin, T], either as given or as the transpose of a [B, T, Cin] input. */
    private static Tensor xInput(GraphBuilder g, Case c) {
        if (!c.transposedX) return g.input("x", Shape.of(c.batch, c.cin, c.t));
        return g.transpose(g.input("x", Shape.of(c.batch, c.t, c.cin)), 1, 2);
    }

    private static float[] runWithX(GraphBuilder g, Tensor y, double[] x, Case c) {
        float[] stored = new float[x.length];
        if (c.transposedX) {
            for (int b = 0; b < c.batch; b++)
                for (int ci = 0; ci < c.cin; ci++)
                    for (int t = 0; t < c.t; t++) {
                        stored[(b * c.t + t) * c.cin + ci] = (float) x[(b * c.cin + ci) * c.t + t];
                    }
        } else {
            stored = KernelHarness.floats(x);
        }
        Shape shape = c.transposedX ? Shape.of(c.batch, c.t, c.cin) : Shape.of(c.batch, c.cin, c.t);
        try (HostTensor xh = HostTensor.ofFloats(shape, stored)) {
            return H.run(g.build(y), Map.of("x", xh), BOUND);
        }
    }
}
