package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.HashMap;
import java.util.Map;

/**
 * Fused attention against a float64 materialized softmax(q·kᵀ·scale + mask [+ causal])·v, over
 * the values k and v really hold in their dtype. Grouped queries, causal with Tq != Tk, masks
 * with -inf (including rows with nothing visible, which must be zeros), q as a permuted view.
 * Scores are O(1) (scale 1/sqrt(D)), so float32 rounding keeps NMSE near 1e-13; bound 1e-10.
 */
class AttentionKernelTest {
    private static final KernelHarness H = new KernelHarness();
    private static final double BOUND = 1e-10;

    @AfterAll
    static void close() { H.close(); }

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"F32", "F16", "BF16"})
    void randomShapes(DType kvType) {
        int[] lengths = {1, 7, 33, 257};
        int[][] headPairs = {{1, 1}, {4, 2}, {3, 1}, {2, 2}};
        for (int n = 0; n < 24; n++) {
            int[] hp = headPairs[H.random.nextInt(headPairs.length)];
            int d = new int[] {1, 7, 16, 33, 64}[H.random.nextInt(5)];
            check(1 + H.random.nextInt(2), hp[0], hp[1], lengths[H.random.nextInt(4)], lengths[H.random.nextInt(4)], d, kvType,
                    H.random.nextBoolean(), H.random.nextInt(3), H.random.nextBoolean());
        }
    }

    @Test
    void causalSelfAttentionAndFullyMaskedRows() {
        check(1, 2, 2, 100, 100, 64, DType.F32, true, 0, false);
        check(1, 2, 1, 40, 9, 8, DType.F32, true, 0, true);   // Tq > Tk: the first rows see nothing
        check(2, 4, 2, 33, 70, 32, DType.F16, true, 2, true); // mask with whole -inf rows, plus causal
        check(1, 1, 1, 1, 1, 1, DType.F32, false, 0, false);
    }

    /** maskKind: 0 none, 1 random finite values with scattered -inf, 2 like 1 plus some all -inf rows. */
    private static void check(int b, int h, int hkv, int tq, int tk, int d, DType kvType, boolean causal, int maskKind, boolean permutedQ) {
        double[] q = H.gaussian(b * h * tq * d);
        HostTensor kh = HostTensor.convert(kvType, Shape.of(b, hkv, tk, d), KernelHarness.floats(H.gaussian(b * hkv * tk * d)));
        HostTensor vh = HostTensor.convert(kvType, Shape.of(b, hkv, tk, d), KernelHarness.floats(H.gaussian(b * hkv * tk * d)));
        double[] k = KernelHarness.stored(kh), v = KernelHarness.stored(vh);
        double[] mask = null;
        if (maskKind > 0) {
            mask = H.gaussian(tq * tk);
            for (int i = 0; i < mask.length; i++) if (H.random.nextInt(5) == 0) mask[i] = Double.NEGATIVE_INFINITY;
            if (maskKind == 2) for (int i = 0; i < tq; i += 3) for (int j = 0; j < tk; j++) mask[i * tk + j] = Double.NEGATIVE_INFINITY;
        }
        float scale = (float) (1 / Math.sqrt(d) * (0.5 + H.random.nextDouble()));
        GraphBuilder g = new GraphBuilder();
        Map<String, HostTensor> inputs = new HashMap<>();
        Tensor qv;
        if (permutedQ) {
            float[] stored = new float[q.length];
            for (int bi = 0; bi < b; bi++) for (int hi = 0; hi < h; hi++) for (int t = 0; t < tq; t++) for (int e = 0; e < d; e++) {
                stored[((bi * tq + t) * h + hi) * d + e] = (float) q[((bi * h + hi) * tq + t) * d + e];
            }
            inputs.put("q", HostTensor.ofFloats(Shape.of(b, tq, h, d), stored));
            qv = g.permute(g.input("q", Shape.of(b, tq, h, d)), 0, 2, 1, 3);
        } else {
            inputs.put("q", HostTensor.ofFloats(Shape.of(b, h, tq, d), KernelHarness.floats(q)));
            qv = g.input("q", Shape.of(b, h, tq, d));
        }
        Tensor mt = null;
        if (mask != null) {
            inputs.put("mask", HostTensor.ofFloats(Shape.of(tq, tk), KernelHarness.floats(mask)));
            mt = g.input("mask", Shape.of(tq, tk));
        }
        Tensor y = g.attention(qv, g.constant(kh), g.constant(vh), mt, scale, causal);
        float[] got;
        try {
            got = H.run(g.build(y), inputs, BOUND);
        } finally {
            inputs.values().forEach(HostTensor::close);
            kh.close();
            vh.close();
        }
        String what = String.format("attention B%d H%d Hkv%d Tq%d Tk%d D%d %s causal=%b mask=%d permutedQ=%b", b, h, hkv, tq, tk, d,
                kvType, causal, maskKind, permutedQ);
        H.assertClose(what, got, reference(q, k, v, mask, b, h, hkv, tq, tk, d, scale, causal), BOUND);
    }

    static double[] reference(double[] q, double[] k, double[] v, double[] mask, int b, int h, int hkv, int tq, int tk, int d,
                              double scale, boolean causal) {
        double[] out = new double[b * h * tq * d];
        double[] s = new double[tk];
        for (int bi = 0; bi < b; bi++) for (int hi = 0; hi < h; hi++) for (int i = 0; i < tq; i++) {
            int kvh = hi / (h / hkv);
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < tk; j++) {
                double dot = 0;
                for (int e = 0; e < d; e++) dot += q[((bi * h + hi) * tq + i) * d + e] * k[((bi * hkv + kvh) * tk + j) * d + e];
                s[j] = dot * scale + (mask == null ? 0 : mask[i * tk + j]);
                if (causal && j > i + (tk - tq)) s[j] = Double.NEGATIVE_INFINITY;
                max = Math.max(max, s[j]);
            }
            if (max == Double.NEGATIVE_INFINITY) continue; // nothing visible: zeros
            double sum = 0;
            for (int j = 0; j < tk; j++) sum += s[j] = Math.exp(s[j] - max);
            for (int j = 0; j < tk; j++) for (int e = 0; e < d; e++) {
                out[((bi * h + hi) * tq + i) * d + e] += s[j] / sum * v[((bi * hkv + kvh) * tk + j) * d + e];
            }
        }
        return out;
    }
}
