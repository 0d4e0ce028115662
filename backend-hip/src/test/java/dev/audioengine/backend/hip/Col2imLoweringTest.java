package dev.audioengine.backend.hip;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HIP-only lowering of conv_transpose1d to ae_matmul + ae_col2im_1d (CONV_TRANSPOSE1D_COL2IM),
 * checked without a GPU: the descriptors ConvOps hands to ae_matmul are applied with the kernel's own
 * index arithmetic (linear.cu), followed by col2im's gather, and compared with a float64 direct
 * conv_transpose1d on random inputs, odd sizes, groups, stride, padding, dilation and a permuted x.
 */
class Col2imLoweringTest {

    /** ae_matmul's indexing: y[(z*M + m)*N + n] = Σ_k x[xBase + m*s2 + k*s3] · w[wBase + n*s2 + k*s3]. */
    private static double[] aeMatmul(double[] x, TensorDesc tx, double[] w, TensorDesc tw, long m, long n, long k, long b1) {
        long batches = tx.n()[0] * tx.n()[1];
        double[] y = new double[(int) (batches * m * n)];
        for (long z = 0; z < batches; z++) {
            long b0 = z / b1, bb = z % b1;
            long xBase = b0 * tx.s()[0] + bb * tx.s()[1], wBase = b0 * tw.s()[0] + bb * tw.s()[1];
            for (long i = 0; i < m; i++) {
                for (long j = 0; j < n; j++) {
                    double acc = 0;
                    for (long q = 0; q < k; q++) acc += x[(int) (xBase + i * tx.s()[2] + q * tx.s()[3])] * w[(int) (wBase + j * tw.s()[2] + q * tw.s()[3])];
                    y[(int) ((z * m + i) * n + j)] = acc;
                }
            }
        }
        return y;
    }

    /** ae_col2im_1d's gather. */
    private static double[] col2im(double[] cols, double[] bias, long b, long cout, long t, long k, long tout, int stride, int pad,
                                   int dil, int groups) {
        long coutPer = cout / groups;
        double[] y = new double[(int) (b * cout * tout)];
        for (long i = 0; i < y.length; i++) {
            long to = i % tout, co = (i / tout) % cout, bi = i / (tout * cout);
            long g = co / coutPer, col = co % coutPer;
            long base = ((bi * groups + g) * coutPer + col) * k * t;
            double acc = bias[(int) co];
            for (long kk = 0; kk < k; kk++) {
                long num = to + pad - kk * dil;
                if (num < 0 || num % stride != 0) continue;
                long ti = num / stride;
                if (ti < t) acc += cols[(int) (base + kk * t + ti)];
            }
            y[(int) i] = acc;
        }
        return y;
    }

    @Test
    void gemmPlusCol2imEqualsADirectTransposedConvolution() {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        int[][] shapes = { // batch, groups, cinPer, coutPer, T, K, stride, pad, dil
                {1, 1, 1, 1, 1, 1, 1, 0, 1}, {2, 1, 3, 5, 7, 4, 2, 1, 1}, {3, 2, 4, 3, 9, 3, 3, 2, 2},
                {1, 4, 1, 1, 33, 5, 1, 2, 1}, {2, 3, 2, 5, 17, 7, 4, 3, 1}};
        for (int[] s : shapes) {
            int batch = s[0], groups = s[1], cinPer = s[2], coutPer = s[3], t = s[4], k = s[5], stride = s[6], pad = s[7], dil = s[8];
            int cin = groups * cinPer, cout = groups * coutPer;
            long tout = (long) (t - 1) * stride - 2L * pad + (long) dil * (k - 1) + 1;
            // x stored time-major-last but channel-outermost: [C, B, T] memory read as [B, C, T] (a permuted view)
            double[] x = r.doubles((long) batch * cin * t, -1, 1).toArray();
            long xs0 = t, xs1 = (long) batch * t, xs2 = 1;
            double[] w = r.doubles((long) cin * coutPer * k, -1, 1).toArray(); // contiguous [Cin, Cout/groups, K]
            double[] bias = r.doubles(cout, -1, 1).toArray();

            long p = (long) coutPer * k;
            TensorDesc[] ops = ConvOps.col2imOperands(batch, groups, cinPer, p, t, xs0, xs1, xs2);
            double[] cols = aeMatmul(w, ops[0], x, ops[1], p, t, cinPer, groups);
            double[] y = col2im(cols, bias, batch, cout, t, k, tout, stride, pad, dil, groups);

            for (int b = 0; b < batch; b++) {
                for (int co = 0; co < cout; co++) {
                    int g = co / coutPer;
                    for (long to = 0; to < tout; to++) {
                        double ref = bias[co];
                        for (int c = 0; c < cinPer; c++) {
                            int ci = g * cinPer + c;
                            for (int ti = 0; ti < t; ti++) {
                                for (int kk = 0; kk < k; kk++) {
                                    if ((long) ti * stride - pad + (long) kk * dil == to) {
                                        ref += x[(int) (b * xs0 + ci * xs1 + ti * xs2)] * w[(ci * coutPer + co % coutPer) * k + kk];
                                    }
                                }
                            }
                        }
                        assertThat(y[(int) ((b * (long) cout + co) * tout + to)])
                                .as("seed %d shape %s y[%d,%d,%d]", seed, java.util.Arrays.toString(s), b, co, to)
                                .isCloseTo(ref, org.assertj.core.data.Offset.offset(1e-12));
                    }
                }
            }
        }
    }
}
