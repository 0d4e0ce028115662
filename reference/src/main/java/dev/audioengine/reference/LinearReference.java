package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import java.util.Arrays;

/** matmul, conv1d and conv_transpose1d written straight from their PyTorch definitions. */
final class LinearReference {
    private LinearReference() {}

    /** y[..., m, n] = Σ_k x[..., m, k] · w[..., n, k], batch axes broadcast. */
    static double[] matmul(Tensor node, double[] x, double[] w) {
        long[] xd = node.input(0).shape().dims(),
                wd = node.input(1).shape().dims(),
                od = node.shape().dims();
        int m = (int) xd[xd.length - 2], k = (int) xd[xd.length - 1], n = (int) wd[wd.length - 2];
        long[] outBatch = Arrays.copyOf(od, od.length - 2);
        int[] xb = RowMajor.broadcastIndex(outBatch, Arrays.copyOf(xd, xd.length - 2));
        int[] wb = RowMajor.broadcastIndex(outBatch, Arrays.copyOf(wd, wd.length - 2));
        double[] y = new double[RowMajor.size(od)];
        for (int bi = 0; bi < xb.length; bi++) {
            int xo = xb[bi] * m * k, wo = wb[bi] * n * k, yo = bi * m * n;
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int p = 0; p < k; p++) s += x[xo + i * k + p] * w[wo + j * k + p];
                    y[yo + i * n + j] = s;
                }
            }
        }
        return y;
    }

    /**
     * y[b, o, t] = bias[o] + Σ_{c in o's group} Σ_j x[b, c, t·stride − padding + j·dilation] · w[o, c − group start, j],
     * reading zeros outside [0, T).
     */
    static double[] conv1d(Tensor node, Op.Conv1d op, double[] x, double[] w, double[] bias) {
        int b = (int) node.input(0).dim(0),
                cin = (int) node.input(0).dim(1),
                t = (int) node.input(0).dim(2);
        int cout = (int) node.dim(1),
                tout = (int) node.dim(2),
                k = (int) node.input(1).dim(2);
        int cinG = cin / op.groups(), coutG = cout / op.groups();
        double[] y = new double[b * cout * tout];
        for (int bi = 0; bi < b; bi++) {
            for (int o = 0; o < cout; o++) {
                int g = o / coutG;
                for (int to = 0; to < tout; to++) {
                    double s = bias == null ? 0 : bias[o];
                    for (int c = 0; c < cinG; c++) {
                        int ci = g * cinG + c;
                        for (int j = 0; j < k; j++) {
                            int ti = to * op.stride() - op.padding() + j * op.dilation();
                            if (ti < 0 || ti >= t) continue;
                            s += x[(bi * cin + ci) * t + ti] * w[(o * cinG + c) * k + j];
                        }
                    }
                    y[(bi * cout + o) * tout + to] = s;
                }
            }
        }
        return y;
    }

    /**
     * The adjoint of conv1d: every input sample x[b, c, s] adds x · w[c, o, j] to
     * y[b, g·Cout/groups + o, s·stride − padding + j·dilation] where that index is inside the output;
     * output_padding only lengthens the output.
     */
    static double[] convTranspose1d(Tensor node, Op.ConvTranspose1d op, double[] x, double[] w, double[] bias) {
        int b = (int) node.input(0).dim(0),
                cin = (int) node.input(0).dim(1),
                t = (int) node.input(0).dim(2);
        int cout = (int) node.dim(1),
                tout = (int) node.dim(2),
                k = (int) node.input(1).dim(2);
        int cinG = cin / op.groups(), coutG = cout / op.groups();
        double[] y = new double[b * cout * tout];
        for (int bi = 0; bi < b; bi++) {
            for (int o = 0; o < cout; o++) {
                for (int to = 0; to < tout; to++) y[(bi * cout + o) * tout + to] = bias == null ? 0 : bias[o];
            }
            for (int ci = 0; ci < cin; ci++) {
                int g = ci / cinG;
                for (int s = 0; s < t; s++) {
                    double xv = x[(bi * cin + ci) * t + s];
                    for (int oc = 0; oc < coutG; oc++) {
                        int o = g * coutG + oc;
                        for (int j = 0; j < k; j++) {
                            int to = s * op.stride() - op.padding() + j * op.dilation();
                            if (to < 0 || to >= tout) continue;
                            y[(bi * cout + o) * tout + to] += xv * w[(ci * coutG + oc) * k + j];
                        }
                    }
                }
            }
        }
        return y;
    }
}
