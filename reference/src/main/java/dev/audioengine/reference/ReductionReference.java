package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * The reduction family: layer_norm, rms_norm and group_norm (variances are biased, divide by N,
 * as in PyTorch), softmax, sum/mean/max along an axis, argmax.
 */
final class ReductionReference {
    private ReductionReference() {}

    /** softmax(x·scale + mask) over the last axis, the mask broadcast to x. */
    static double[] softmax(Tensor node, Op.Softmax op, double[] x, double[] mask) {
        int n = (int) node.dim(-1), rows = n == 0 ? 0 : x.length / n;
        int[] mi = mask == null
                ? null
                : RowMajor.broadcastIndex(
                        node.shape().dims(), node.input(1).shape().dims());
        double[] y = new double[x.length];
        double[] row = new double[n];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < n; i++) {
                int k = r * n + i;
                row[i] = x[k] * op.scale() + (mask == null ? 0 : mask[mi[k]]);
            }
            softmaxRow(row, n);
            System.arraycopy(row, 0, y, r * n, n);
        }
        return y;
    }

    /**
     * In place: exp(z − max) / Σ exp(z − max). A row that is entirely −inf (every key masked)
     * becomes all zeros rather than 0/0: nothing may be attended to, so nothing is read.
     * NaN anywhere in the row makes the whole row NaN.
     */
    static void softmaxRow(double[] z, int n) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) max = Math.max(max, z[i]);
        if (max == Double.NEGATIVE_INFINITY) {
            java.util.Arrays.fill(z, 0, n, 0.0);
            return;
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            z[i] = Math.exp(z[i] - max);
            sum += z[i];
        }
        for (int i = 0; i < n; i++) z[i] /= sum;
    }

    /**
     * Along one axis: SUM (0 for an empty axis), MEAN (NaN for an empty axis), MAX (NaN if any
     * value is NaN, as in torch.max). keepDim does not change the values' order.
     */
    static double[] reduce(Tensor node, Op.Reduce op, double[] x) {
        long[] in = node.input(0).shape().dims();
        int ax = op.axis();
        int outer = RowMajor.product(in, 0, ax), n = (int) in[ax], inner = RowMajor.product(in, ax + 1, in.length);
        double[] y = new double[outer * inner];
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                double acc = op.kind() == Op.ReduceKind.MAX ? Double.NEGATIVE_INFINITY : 0;
                for (int j = 0; j < n; j++) {
                    double v = x[(o * n + j) * inner + i];
                    acc = op.kind() == Op.ReduceKind.MAX ? Math.max(acc, v) : acc + v;
                }
                y[o * inner + i] = op.kind() == Op.ReduceKind.MEAN ? acc / n : acc;
            }
        }
        return y;
    }

    /** First index of the largest value; a NaN counts as larger than everything (the first NaN wins), as in torch.argmax. */
    static double[] argmax(Tensor node, Op.Argmax op, double[] x) {
        long[] in = node.input(0).shape().dims();
        int ax = op.axis();
        int outer = RowMajor.product(in, 0, ax), n = (int) in[ax], inner = RowMajor.product(in, ax + 1, in.length);
        double[] y = new double[outer * inner];
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                int best = 0;
                double bestV = x[o * n * inner + i];
                for (int j = 1; j < n && !Double.isNaN(bestV); j++) {
                    double v = x[(o * n + j) * inner + i];
                    if (Double.isNaN(v) || v > bestV) {
                        best = j;
                        bestV = v;
                    }
                }
                y[o * inner + i] = best;
            }
        }
        return y;
    }

    /** Per row of the last axis: (x − mean) / sqrt(var + eps) · gamma + beta. */
    static double[] layerNorm(Tensor node, Op.LayerNorm op, double[] x, double[] gamma, double[] beta) {
        int n = (int) node.dim(-1), rows = n == 0 ? 0 : x.length / n;
        double[] y = new double[x.length];
        for (int r = 0; r < rows; r++) {
            int o = r * n;
            double mean = 0;
            for (int i = 0; i < n; i++) mean += x[o + i];
            mean /= n;
            double var = 0;
            for (int i = 0; i < n; i++) var += (x[o + i] - mean) * (x[o + i] - mean);
            var /= n;
            double inv = 1 / Math.sqrt(var + op.eps());
            for (int i = 0; i < n; i++) {
                double v = (x[o + i] - mean) * inv;
                if (gamma != null) v *= gamma[i];
                if (beta != null) v += beta[i];
                y[o + i] = v;
            }
        }
        return y;
    }

    /** Per row of the last axis: x / sqrt(mean(x²) + eps) · gamma. */
    static double[] rmsNorm(Tensor node, Op.RmsNorm op, double[] x, double[] gamma) {
        int n = (int) node.dim(-1), rows = n == 0 ? 0 : x.length / n;
        double[] y = new double[x.length];
        for (int r = 0; r < rows; r++) {
            int o = r * n;
            double ms = 0;
            for (int i = 0; i < n; i++) ms += x[o + i] * x[o + i];
            ms /= n;
            double inv = 1 / Math.sqrt(ms + op.eps());
            for (int i = 0; i < n; i++) y[o + i] = x[o + i] * inv * (gamma == null ? 1 : gamma[i]);
        }
        return y;
    }

    /**
     * x [B, C, ...]: statistics over each (batch, group of C/groups consecutive channels) and every
     * trailing axis; the affine parameters are per channel.
     */
    static double[] groupNorm(Tensor node, Op.GroupNorm op, double[] x, double[] gamma, double[] beta) {
        long[] d = node.shape().dims();
        int b = (int) d[0], c = (int) d[1], spatial = RowMajor.product(d, 2, d.length);
        int perGroup = c / op.groups(), count = perGroup * spatial;
        double[] y = new double[x.length];
        for (int bi = 0; bi < b; bi++) {
            for (int g = 0; g < op.groups(); g++) {
                int o = (bi * c + g * perGroup) * spatial;
                double mean = 0;
                for (int i = 0; i < count; i++) mean += x[o + i];
                mean /= count;
                double var = 0;
                for (int i = 0; i < count; i++) var += (x[o + i] - mean) * (x[o + i] - mean);
                var /= count;
                double inv = 1 / Math.sqrt(var + op.eps());
                for (int i = 0; i < count; i++) {
                    int ch = g * perGroup + i / spatial;
                    double v = (x[o + i] - mean) * inv;
                    if (gamma != null) v = v * gamma[ch] + beta[ch];
                    y[o + i] = v;
                }
            }
        }
        return y;
    }
}
