package dev.audioengine.reference;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/** The sequence family: get_rows, rope, attention, key_mask (of a cache holding some keys) and lstm. */
final class SequenceReference {
    private SequenceReference() {}

    /** out[..., :] = table[id, :]; an id outside [0, V) is an error, never a wrapped or clamped read. */
    static double[] getRows(Tensor node, double[] table, double[] ids) {
        int v = (int) node.input(0).dim(0), d = (int) node.input(0).dim(1);
        double[] y = new double[ids.length * d];
        for (int i = 0; i < ids.length; i++) {
            int id = (int) ids[i];
            if (id < 0 || id >= v) {
                throw new IllegalArgumentException(
                        "get_rows: id " + id + " at position " + i + " is outside the table's " + v + " rows");
            }
            System.arraycopy(table, id * d, y, i * d, d);
        }
        return y;
    }

    /**
     * x [B, H, T, D], positions [T]: pair p = (a, b) rotates by θ_i = pos · base^(−2i/dims),
     * y_a = x_a cos θ − x_b sin θ, y_b = x_a sin θ + x_b cos θ; NORMAL pairs (2i, 2i+1), NEOX
     * pairs (i, i + dims/2); values past {@code dims} pass through.
     */
    static double[] rope(Tensor node, Op.Rope op, double[] x, double[] positions) {
        long[] dd = node.shape().dims();
        int rows = (int) (dd[0] * dd[1]), t = (int) dd[2], d = (int) dd[3], half = op.dims() / 2;
        double[] y = x.clone();
        for (int r = 0; r < rows; r++) {
            for (int ti = 0; ti < t; ti++) {
                int o = (r * t + ti) * d;
                double pos = positions[ti];
                for (int i = 0; i < half; i++) {
                    double theta = pos * Math.pow(op.base(), -2.0 * i / op.dims());
                    double c = Math.cos(theta), s = Math.sin(theta);
                    int a = op.mode() == Op.RopeMode.NORMAL ? 2 * i : i;
                    int b = op.mode() == Op.RopeMode.NORMAL ? 2 * i + 1 : i + half;
                    y[o + a] = x[o + a] * c - x[o + b] * s;
                    y[o + b] = x[o + a] * s + x[o + b] * c;
                }
            }
        }
        return y;
    }

    /**
     * softmax(q·kᵀ·scale + mask [+ causal]) · v per (batch, head). Query head h reads key/value
     * head h / (H / Hkv) (consecutive query heads share a kv head, like repeat_interleave).
     * Causal hides key j from query i when j > i + (Tk − Tq). A query that sees no key at all
     * gets zeros (see {@link ReductionReference#softmaxRow}). A mask [Tq, Tk] applies to every
     * batch element, a mask [B, 1, Tq, Tk] gives batch element b its own.
     */
    static double[] attention(Tensor node, Op.Attention op, double[] q, double[] k, double[] v, double[] mask) {
        long[] qd = node.input(0).shape().dims(), kd = node.input(1).shape().dims();
        int b = (int) qd[0], h = (int) qd[1], tq = (int) qd[2], d = (int) qd[3];
        int hkv = (int) kd[1], tk = (int) kd[2], perKv = h / hkv;
        double[] y = new double[q.length];
        double[] scores = new double[tk];
        boolean perBatch = mask != null && node.input(3).rank() == 4;
        for (int bi = 0; bi < b; bi++) {
            int mo = perBatch ? bi * tq * tk : 0;
            for (int hi = 0; hi < h; hi++) {
                int qo = (bi * h + hi) * tq * d, ko = (bi * hkv + hi / perKv) * tk * d;
                for (int i = 0; i < tq; i++) {
                    for (int j = 0; j < tk; j++) {
                        double s = 0;
                        for (int p = 0; p < d; p++) s += q[qo + i * d + p] * k[ko + j * d + p];
                        s *= op.scale();
                        if (mask != null) s += mask[mo + i * tk + j];
                        if (op.causal() && j > i + (tk - tq)) s = Double.NEGATIVE_INFINITY;
                        scores[j] = s;
                    }
                    ReductionReference.softmaxRow(scores, tk);
                    for (int p = 0; p < d; p++) {
                        double acc = 0;
                        for (int j = 0; j < tk; j++) acc += scores[j] * v[ko + j * d + p];
                        y[qo + i * d + p] = acc;
                    }
                }
            }
        }
        return y;
    }

    /**
     * One LSTM layer in PyTorch's gate order: gates = W_ih·x_t + b_ih + W_hh·h + b_hh split into
     * (i, f, g, o); c = σ(f)·c + σ(i)·tanh(g); h = σ(o)·tanh(c). Output [2, B, T, H]: h then c per step.
     */
    static double[] lstm(
            Tensor node, double[] x, double[] wIh, double[] wHh, double[] bIh, double[] bHh, double[] h0, double[] c0) {
        int b = (int) node.input(0).dim(0),
                t = (int) node.input(0).dim(1),
                in = (int) node.input(0).dim(2);
        int hid = ((Op.Lstm) node.op()).hidden();
        double[] y = new double[2 * b * t * hid];
        double[] gates = new double[4 * hid];
        for (int bi = 0; bi < b; bi++) {
            double[] h = new double[hid], c = new double[hid];
            System.arraycopy(h0, bi * hid, h, 0, hid);
            System.arraycopy(c0, bi * hid, c, 0, hid);
            for (int ti = 0; ti < t; ti++) {
                int xo = (bi * t + ti) * in;
                for (int gi = 0; gi < 4 * hid; gi++) {
                    double s = bIh[gi] + bHh[gi];
                    for (int p = 0; p < in; p++) s += wIh[gi * in + p] * x[xo + p];
                    for (int p = 0; p < hid; p++) s += wHh[gi * hid + p] * h[p];
                    gates[gi] = s;
                }
                for (int j = 0; j < hid; j++) {
                    double ig = ElementwiseReference.sigmoid(gates[j]);
                    double fg = ElementwiseReference.sigmoid(gates[hid + j]);
                    double gg = Math.tanh(gates[2 * hid + j]);
                    double og = ElementwiseReference.sigmoid(gates[3 * hid + j]);
                    c[j] = fg * c[j] + ig * gg;
                    h[j] = og * Math.tanh(c[j]);
                }
                int yo = (bi * t + ti) * hid;
                System.arraycopy(h, 0, y, yo, hid);
                System.arraycopy(c, 0, y, b * t * hid + yo, hid);
            }
        }
        return y;
    }

    /**
     * 0 where query i sees key j of a cache holding {@code length} keys, -inf elsewhere; with B
     * lengths (mask [B, 1, Tq, Tk]) batch element b by its own length[b].
     */
    static double[] keyMask(Tensor t, Op.KeyMask op, double[] length) {
        int tq = (int) t.dim(-2), tk = (int) t.dim(-1), b = length.length;
        double[] y = new double[b * tq * tk];
        for (int bi = 0; bi < b; bi++) {
            long len = (long) length[bi];
            for (int i = 0; i < tq; i++) {
                long visible = op.causal() ? len - (tq - 1 - i) : len;
                for (int j = 0; j < tk; j++) y[(bi * tq + i) * tk + j] = j < visible ? 0 : Double.NEGATIVE_INFINITY;
            }
        }
        return y;
    }
}
