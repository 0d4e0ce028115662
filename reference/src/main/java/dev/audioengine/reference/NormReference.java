package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/** layer_norm, rms_norm and group_norm; variances are biased (divide by N), as in PyTorch. */
final class NormReference {
    private NormReference() {}

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
