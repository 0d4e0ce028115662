package dev.audioengine.blocks.weights;

import java.util.Arrays;

/**
 * ONNX's linear dequantization, y = (q − zero_point) · scale, with one scale (and zero point) for
 * the whole tensor or one per index along {@code axis}, as DequantizeLinear defines it and as
 * MatMulInteger, ConvInteger and DynamicQuantizeLSTM apply their weight zero points. Computed in
 * float, the order ONNX Runtime uses, so the values match its dequantized weights exactly.
 */
final class Dequantize {
    private Dequantize() {}

    /** {@code zeroPoint} may be null (zero). A one-element scale is per tensor whatever its rank. */
    static Folded linear(Folded q, Folded scale, Folded zeroPoint, int axis, String what) {
        float[] s = scale.values();
        float[] z = zeroPoint == null ? new float[s.length] : zeroPoint.values();
        if (z.length != s.length) {
            throw new IllegalArgumentException(what + ": zero point has " + z.length + " values, scale " + s.length);
        }
        float[] v = q.values(), out = new float[v.length];
        if (s.length == 1) {
            for (int i = 0; i < v.length; i++) out[i] = (v[i] - z[0]) * s[0];
            return new Folded(q.shape(), out);
        }
        int ax = axis < 0 ? axis + q.rank() : axis;
        if (ax < 0 || ax >= q.rank() || q.dim(ax) != s.length) {
            throw new IllegalArgumentException(
                    what + ": " + s.length + " scales along axis " + axis + " of a weight shaped "
                            + Arrays.toString(q.shape()) + " (per-channel scales need one per index of that axis)");
        }
        long inner = 1;
        for (int i = ax + 1; i < q.rank(); i++) inner *= q.dim(i);
        for (int i = 0; i < v.length; i++) {
            int c = (int) ((i / inner) % s.length);
            out[i] = (v[i] - z[c]) * s[c];
        }
        return new Folded(q.shape(), out);
    }
}
