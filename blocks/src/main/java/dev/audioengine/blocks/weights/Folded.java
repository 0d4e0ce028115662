package dev.audioengine.blocks.weights;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.Arrays;

/**
 * A weight value computed at load from an ONNX file (an initializer, a Constant node, or an
 * expression of them such as a dequantization): float values in row-major order.
 */
record Folded(long[] shape, float[] values) {
    Folded {
        long n = 1;
        for (long d : shape) n *= d;
        if (n != values.length)
            throw new IllegalArgumentException(values.length + " values for shape " + Arrays.toString(shape));
    }

    int rank() {
        return shape.length;
    }

    long dim(int axis) {
        return shape[axis < 0 ? shape.length + axis : axis];
    }

    /** The last two axes swapped (ONNX MatMul's [K, N] weights to the engine's [N, K]). */
    Folded transposeLastTwo() {
        if (shape.length < 2) throw new IllegalArgumentException("cannot transpose a tensor of rank " + shape.length);
        int[] perm = new int[shape.length];
        for (int i = 0; i < perm.length; i++) perm[i] = i;
        perm[perm.length - 2] = perm.length - 1;
        perm[perm.length - 1] = perm.length - 2;
        return permute(perm);
    }

    /** Output axis i is input axis perm[i]. */
    Folded permute(int[] perm) {
        int r = shape.length;
        if (perm.length != r)
            throw new IllegalArgumentException("permutation " + Arrays.toString(perm) + " for rank " + r);
        long[] inStrides = strides(shape);
        long[] out = new long[r];
        long[] stride = new long[r];
        for (int i = 0; i < r; i++) {
            out[i] = shape[perm[i]];
            stride[i] = inStrides[perm[i]];
        }
        float[] v = new float[values.length];
        long[] idx = new long[r];
        for (int i = 0; i < v.length; i++) {
            long at = 0;
            for (int a = 0; a < r; a++) at += idx[a] * stride[a];
            v[i] = values[(int) at];
            for (int a = r - 1; a >= 0; a--) {
                if (++idx[a] < out[a]) break;
                idx[a] = 0;
            }
        }
        return new Folded(out, v);
    }

    Folded reshaped(long[] newShape) {
        return new Folded(newShape.clone(), values);
    }

    /** An F32 engine tensor that owns a copy of the values (a scalar becomes shape []). */
    HostTensor toHostTensor() {
        return HostTensor.ofFloats(new Shape(shape.clone()), values);
    }

    static long[] strides(long[] shape) {
        long[] s = new long[shape.length];
        long acc = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= shape[i];
        }
        return s;
    }
}
