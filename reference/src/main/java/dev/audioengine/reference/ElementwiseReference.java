package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/** Binary ops with broadcasting, unary activations, scale and snake. */
final class ElementwiseReference {
    private static final double SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

    private ElementwiseReference() {}

    static double[] binary(Tensor node, Op.BinaryKind kind, double[] a, double[] b) {
        long[] out = node.shape().dims();
        int[] ia = RowMajor.broadcastIndex(out, node.input(0).shape().dims());
        int[] ib = RowMajor.broadcastIndex(out, node.input(1).shape().dims());
        double[] y = new double[ia.length];
        for (int i = 0; i < y.length; i++) {
            double x = a[ia[i]], z = b[ib[i]];
            y[i] = switch (kind) {
                case ADD -> x + z;
                case SUB -> x - z;
                case MUL -> x * z;
                case DIV -> x / z;
                case POW -> Math.pow(x, z);
                case MAX -> Math.max(x, z);
            };
        }
        return y;
    }

    static double[] unary(Op.Unary op, double[] x) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) y[i] = unary(op.kind(), op.alpha(), x[i]);
        return y;
    }

    /** One activation value; NaN in gives NaN out for every kind. */
    static double unary(Op.UnaryKind kind, double alpha, double x) {
        return switch (kind) {
            case RELU -> Math.max(0.0, x);
            // 1 + erf(z) = erfc(-z): for x < 0 the sum would cancel (one digit left at x = -8, none from -8.5)
            case GELU_ERF -> x < 0 ? 0.5 * x * Erf.erfc(-x / Math.sqrt(2)) : 0.5 * x * (1 + Erf.erf(x / Math.sqrt(2)));
            // 0.5x(1 + tanh u) written as x·σ(2u), the same number without 1 + tanh cancelling in the negative tail
            case GELU_TANH -> x * sigmoid(2 * SQRT_2_OVER_PI * (x + 0.044715 * x * x * x));
            case SILU -> x * sigmoid(x);
            case TANH -> Math.tanh(x);
            case SIGMOID -> sigmoid(x);
            case ELU -> x > 0 ? x : Double.isNaN(x) ? x : alpha * Math.expm1(x);
            case EXP -> Math.exp(x);
            case LOG -> Math.log(x);
            case SQRT -> Math.sqrt(x);
            case NEG -> -x;
            case ABS -> Math.abs(x);
            case SQR -> x * x;
            case SIN -> Math.sin(x);
            case COS -> Math.cos(x);
            case LEAKY_RELU -> x > 0 ? x : alpha * x;
        };
    }

    static double sigmoid(double x) {
        // Written so that neither branch overflows: e^{-|x|} <= 1.
        if (x >= 0) return 1 / (1 + Math.exp(-x));
        double e = Math.exp(x);
        return e / (1 + e);
    }

    static double[] scale(Op.Scale op, double[] x) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) y[i] = x[i] * op.scale() + op.bias();
        return y;
    }

    /** x [B, C, T], alpha [C]: x + sin²(αx) / (α + 1e-9). */
    static double[] snake(Tensor node, double[] x, double[] alpha) {
        long[] d = node.shape().dims();
        int b = (int) d[0], c = (int) d[1], t = (int) d[2];
        double[] y = new double[x.length];
        for (int i = 0; i < b; i++) {
            for (int ch = 0; ch < c; ch++) {
                double a = alpha[ch];
                for (int j = 0; j < t; j++) {
                    int k = (i * c + ch) * t + j;
                    double s = Math.sin(a * x[k]);
                    y[k] = x[k] + s * s / (a + 1e-9);
                }
            }
        }
        return y;
    }
}
