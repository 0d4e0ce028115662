package dev.audioengine.backend.cpu.kernels.spectral;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.kernels.KernelHarness;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Stft and Istft against direct float64 DFT sums written from torch.stft / torch.istft
 * (reflect padding, onesided bins, irfft ignoring the DC and Nyquist imaginary parts, squared
 * window envelope), for power-of-two lengths (radix-2) and others (Bluestein: 400, 7, 255),
 * plus a round trip. The FFT runs in double and only inputs/outputs are float32, so NMSE sits
 * near 1e-14; bound 1e-10.
 */
class SpectralKernelsTest {
    private static final KernelHarness H = new KernelHarness();
    private static final double BOUND = 1e-10;

    @AfterAll
    static void close() {
        H.close();
    }

    @Test
    void stftMatchesTheDirectSum() {
        int[][] cases = {
            {16, 4, 1}, {400, 160, 1}, {7, 3, 0}, {512, 128, 1}, {255, 64, 0}, {2, 1, 1}, {64, 64, 0}, {33, 5, 1}
        };
        for (int[] c : cases) {
            int n = c[0], hop = c[1];
            boolean center = c[2] == 1;
            int t = n + 1 + H.random.nextInt(3 * n + 7);
            stft(1 + H.random.nextInt(2), t, n, hop, center, H.random.nextBoolean());
        }
    }

    @Test
    void istftMatchesTheDirectSum() {
        int[][] cases = {{16, 4, 1}, {400, 160, 1}, {7, 3, 0}, {512, 128, 0}, {255, 64, 1}, {8, 8, 0}, {33, 5, 1}};
        for (int[] c : cases) {
            int n = c[0], hop = c[1];
            boolean center = c[2] == 1;
            int frames = 1 + H.random.nextInt(40); // spans several 16-frame work units
            long full = n + (long) hop * (frames - 1) - (center ? 2L * (n / 2) : 0);
            if (full < 1) continue;
            istft(1 + H.random.nextInt(2), frames, n, hop, center, 1 + H.random.nextInt((int) full));
        }
    }

    @Test
    void roundTripRecoversTheSignal() {
        int n = 400, hop = 100, t = 1600;
        double[] x = H.gaussian(t), w = hann(n);
        GraphBuilder g = new GraphBuilder();
        Tensor xi = g.input("x", Shape.of(1, t));
        Tensor wt = g.constant(HostTensor.ofFloats(Shape.of(n), KernelHarness.floats(w)));
        Tensor y = g.istft(g.stft(xi, wt, n, hop, true), wt, n, hop, true, t);
        try (HostTensor xh = HostTensor.ofFloats(Shape.of(1, t), KernelHarness.floats(x))) {
            H.assertClose("stft->istft round trip", H.run(g.build(y), Map.of("x", xh), BOUND), x, BOUND);
        }
    }

    @Test
    void istftRejectsAWindowThatFailsNola() {
        int n = 16, hop = 4;
        GraphBuilder g = new GraphBuilder();
        Tensor spec = g.input("spec", Shape.of(1, n / 2 + 1, 5, 2));
        Tensor y = g.istft(spec, g.constant(HostTensor.ofFloats(Shape.of(n), new float[n])), n, hop, true, 8);
        try (HostTensor sh = HostTensor.ofFloats(Shape.of(1, n / 2 + 1, 5, 2), new float[(n / 2 + 1) * 10])) {
            assertThatThrownBy(() -> H.run(g.build(y), Map.of("spec", sh), BOUND))
                    .hasStackTraceContaining("NOLA");
        }
    }

    private static void stft(int b, int t, int n, int hop, boolean center, boolean transposedX) {
        double[] x = H.gaussian(b * t), w = H.random.nextBoolean() ? hann(n) : H.gaussian(n);
        GraphBuilder g = new GraphBuilder();
        float[] stored = new float[x.length];
        Tensor xv;
        if (transposedX) {
            for (int bi = 0; bi < b; bi++) for (int i = 0; i < t; i++) stored[i * b + bi] = (float) x[bi * t + i];
            xv = g.transpose(g.input("x", Shape.of(t, b)), 0, 1);
        } else {
            stored = KernelHarness.floats(x);
            xv = g.input("x", Shape.of(b, t));
        }
        Tensor y = g.stft(xv, g.constant(HostTensor.ofFloats(Shape.of(n), KernelHarness.floats(w))), n, hop, center);
        int frames = (int) y.dim(2), bins = n / 2 + 1, pad = center ? n / 2 : 0;
        double[] want = new double[b * bins * frames * 2];
        for (int bi = 0; bi < b; bi++)
            for (int f = 0; f < frames; f++)
                for (int k = 0; k < bins; k++) {
                    double re = 0, im = 0;
                    for (int j = 0; j < n; j++) {
                        int src = f * hop + j - pad;
                        src = src < 0 ? -src : src >= t ? 2 * (t - 1) - src : src;
                        double v = x[bi * t + src] * w[j], angle = -2 * Math.PI * ((long) k * j % n) / n;
                        re += v * Math.cos(angle);
                        im += v * Math.sin(angle);
                    }
                    int o = ((bi * bins + k) * frames + f) * 2;
                    want[o] = re;
                    want[o + 1] = im;
                }
        try (HostTensor xh = HostTensor.ofFloats(transposedX ? Shape.of(t, b) : Shape.of(b, t), stored)) {
            H.assertClose(
                    String.format("stft B%d T%d n%d hop%d center=%b transposedX=%b", b, t, n, hop, center, transposedX),
                    H.run(g.build(y), Map.of("x", xh), BOUND),
                    want,
                    BOUND);
        }
    }

    private static void istft(int b, int frames, int n, int hop, boolean center, int length) {
        int bins = n / 2 + 1;
        double[] spec = H.gaussian(b * bins * frames * 2), w = new double[n];
        for (int j = 0; j < n; j++) w[j] = 0.5 + H.random.nextDouble(); // bounded away from 0: NOLA holds everywhere
        GraphBuilder g = new GraphBuilder();
        boolean frameMajor = H.random.nextBoolean(); // spec as the permuted view of a [B, frames, bins, 2] input
        Tensor s = frameMajor
                ? g.permute(g.input("spec", Shape.of(b, frames, bins, 2)), 0, 2, 1, 3)
                : g.input("spec", Shape.of(b, bins, frames, 2));
        Tensor y = g.istft(
                s, g.constant(HostTensor.ofFloats(Shape.of(n), KernelHarness.floats(w))), n, hop, center, length);
        int full = n + hop * (frames - 1), start = center ? n / 2 : 0;
        double[] env = new double[full], acc = new double[full], want = new double[b * length];
        for (int f = 0; f < frames; f++) for (int j = 0; j < n; j++) env[f * hop + j] += w[j] * w[j];
        for (int bi = 0; bi < b; bi++) {
            java.util.Arrays.fill(acc, 0);
            for (int f = 0; f < frames; f++)
                for (int j = 0; j < n; j++) {
                    double v = 0;
                    for (int k = 0; k < n; k++) { // full Hermitian spectrum, DC/Nyquist imaginary parts dropped
                        int src = k < bins ? k : n - k;
                        double re = spec[((bi * bins + src) * frames + f) * 2];
                        double im = (src == 0 || (n % 2 == 0 && src == n / 2))
                                ? 0
                                : spec[((bi * bins + src) * frames + f) * 2 + 1];
                        if (k >= bins) im = -im;
                        double angle = 2 * Math.PI * ((long) k * j % n) / n;
                        v += re * Math.cos(angle) - im * Math.sin(angle);
                    }
                    acc[f * hop + j] += v / n * w[j];
                }
            for (int i = 0; i < length; i++) want[bi * length + i] = acc[start + i] / env[start + i];
        }
        float[] stored = KernelHarness.floats(spec);
        if (frameMajor) {
            for (int bi = 0; bi < b; bi++)
                for (int k = 0; k < bins; k++)
                    for (int f = 0; f < frames; f++)
                        for (int c = 0; c < 2; c++) {
                            stored[((bi * frames + f) * bins + k) * 2 + c] =
                                    (float) spec[((bi * bins + k) * frames + f) * 2 + c];
                        }
        }
        Shape storedShape = frameMajor ? Shape.of(b, frames, bins, 2) : Shape.of(b, bins, frames, 2);
        try (HostTensor sh = HostTensor.ofFloats(storedShape, stored)) {
            H.assertClose(
                    String.format(
                            "istft B%d frames%d n%d hop%d center=%b length%d frameMajor=%b",
                            b, frames, n, hop, center, length, frameMajor),
                    H.run(g.build(y), Map.of("spec", sh), BOUND),
                    want,
                    BOUND);
        }
    }

    private static double[] hann(int n) {
        double[] w = new double[n];
        for (int j = 0; j < n; j++)
            w[j] = 0.5 - 0.5 * Math.cos(2 * Math.PI * j / n); // periodic, torch.hann_window's default
        return w;
    }
}
