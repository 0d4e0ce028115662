package dev.audioengine.blocks;

/**
 * Independent float64 implementations of what the blocks compute, written from the PyTorch /
 * transformers definitions (not from the blocks or the engine's reference): row-major arrays.
 */
final class Float64Blocks {
    private Float64Blocks() {}

    /** y [rows, out] = x [rows, in] · wᵀ + b, w [out, in]. */
    static double[] linear(double[] x, int rows, float[] w, float[] b, int in, int out) {
        double[] y = new double[rows * out];
        for (int r = 0; r < rows; r++) {
            for (int o = 0; o < out; o++) {
                double s = b == null ? 0 : b[o];
                for (int i = 0; i < in; i++) s += x[r * in + i] * w[o * in + i];
                y[r * out + o] = s;
            }
        }
        return y;
    }

    /**
     * transformers' rotary on one head vector (in place): inv_freq_i = base^(−2i/dims), emb =
     * cat(freqs, freqs); interleaved (Moonshine): cos/sin of the first half repeat_interleave'd,
     * rotate_half = stack(−x[1::2], x[0::2]); halves (Llama): rotate_half = cat(−x2, x1).
     */
    static void rotary(double[] v, int off, int dims, double base, boolean interleaved, double position) {
        double[] emb = new double[dims];
        for (int i = 0; i < dims / 2; i++) {
            double f = position / Math.pow(base, 2.0 * i / dims);
            emb[i] = f;
            emb[i + dims / 2] = f;
        }
        double[] x = new double[dims], rot = new double[dims], cos = new double[dims], sin = new double[dims];
        System.arraycopy(v, off, x, 0, dims);
        for (int j = 0; j < dims; j++) {
            double a = interleaved ? emb[j / 2] : emb[j];
            cos[j] = Math.cos(a);
            sin[j] = Math.sin(a);
            if (interleaved) rot[j] = j % 2 == 0 ? -x[j + 1] : x[j - 1];
            else rot[j] = j < dims / 2 ? -x[j + dims / 2] : x[j - dims / 2];
        }
        for (int j = 0; j < dims; j++) v[off + j] = x[j] * cos[j] + rot[j] * sin[j];
    }

    /**
     * Attention of q [B, H, Tq, d] over k, v [B, Hkv, Tk, d] (query head h reads kv head
     * h / (H / Hkv)), softmax(q·kᵀ/√d) with keys j > i + Tk − Tq hidden when causal.
     */
    static double[] attention(
            double[] q, double[] k, double[] v, int b, int h, int hkv, int tq, int tk, int d, boolean causal) {
        double[] out = new double[b * h * tq * d];
        double scale = 1 / Math.sqrt(d);
        for (int bi = 0; bi < b; bi++) {
            for (int hi = 0; hi < h; hi++) {
                int kh = hi / (h / hkv);
                for (int i = 0; i < tq; i++) {
                    double[] s = new double[tk];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < tk; j++) {
                        if (causal && j > i + tk - tq) {
                            s[j] = Double.NEGATIVE_INFINITY;
                            continue;
                        }
                        double dot = 0;
                        for (int c = 0; c < d; c++)
                            dot += q[((bi * h + hi) * tq + i) * d + c] * k[((bi * hkv + kh) * tk + j) * d + c];
                        s[j] = dot * scale;
                        max = Math.max(max, s[j]);
                    }
                    double sum = 0;
                    for (int j = 0; j < tk; j++)
                        sum += s[j] = s[j] == Double.NEGATIVE_INFINITY ? 0 : Math.exp(s[j] - max);
                    for (int j = 0; j < tk; j++) {
                        for (int c = 0; c < d; c++)
                            out[((bi * h + hi) * tq + i) * d + c] += s[j] / sum * v[((bi * hkv + kh) * tk + j) * d + c];
                    }
                }
            }
        }
        return out;
    }

    /** [B, T, n·d] → [B, n, T, d]. */
    static double[] heads(double[] x, int b, int t, int n, int d) {
        double[] y = new double[x.length];
        for (int bi = 0; bi < b; bi++)
            for (int ti = 0; ti < t; ti++)
                for (int hi = 0; hi < n; hi++)
                    for (int c = 0; c < d; c++) {
                        y[((bi * n + hi) * t + ti) * d + c] = x[(bi * t + ti) * n * d + hi * d + c];
                    }
        return y;
    }

    /** [B, n, T, d] → [B, T, n·d]. */
    static double[] merge(double[] x, int b, int t, int n, int d) {
        double[] y = new double[x.length];
        for (int bi = 0; bi < b; bi++)
            for (int ti = 0; ti < t; ti++)
                for (int hi = 0; hi < n; hi++)
                    for (int c = 0; c < d; c++) {
                        y[(bi * t + ti) * n * d + hi * d + c] = x[((bi * n + hi) * t + ti) * d + c];
                    }
        return y;
    }

    static double gelu(double x) {
        return 0.5 * x * (1 + erf(x / Math.sqrt(2)));
    }

    /** Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): far below what the block tests' bounds would notice. */
    static double erf(double x) {
        double t = 1 / (1 + 0.3275911 * Math.abs(x));
        double y = 1
                - t
                        * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
                        * Math.exp(-x * x);
        return Math.copySign(y, x);
    }

    static double silu(double x) {
        return x / (1 + Math.exp(-x));
    }

    static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    /** torch.nn.LSTM, one direction over x [T, I] for one batch item, gates (i, f, g, o): hidden states [T, H]. */
    static double[] lstm(double[] x, int t, int in, float[] wih, float[] whh, float[] bih, float[] bhh, int hidden) {
        double[] h = new double[hidden], c = new double[hidden], out = new double[t * hidden];
        for (int s = 0; s < t; s++) {
            double[] gates = new double[4 * hidden];
            for (int r = 0; r < 4 * hidden; r++) {
                double a = bih[r] + bhh[r];
                for (int i = 0; i < in; i++) a += wih[r * in + i] * x[s * in + i];
                for (int i = 0; i < hidden; i++) a += whh[r * hidden + i] * h[i];
                gates[r] = a;
            }
            for (int j = 0; j < hidden; j++) {
                double ig = sigmoid(gates[j]),
                        fg = sigmoid(gates[hidden + j]),
                        gg = Math.tanh(gates[2 * hidden + j]),
                        og = sigmoid(gates[3 * hidden + j]);
                c[j] = fg * c[j] + ig * gg;
                h[j] = og * Math.tanh(c[j]);
                out[s * hidden + j] = h[j];
            }
        }
        return out;
    }
}
