package dev.audioengine.weights.tfjs;

import java.util.Arrays;

/**
 * One entry of a TF.js weight manifest, decoded: its name, the dtype the model computes in ({@code float32},
 * {@code int32} or {@code bool}), its shape, and its values. Quantized entries ({@code uint8}, {@code uint16} with a
 * scale and minimum, or {@code float16}) are already dequantized into {@link #floats()}.
 *
 * @param name the manifest name (the graph node it feeds, e.g. {@code StatefulPartitionedCall/model_1/conv2d_1/...})
 * @param dtype the manifest's dtype: "float32", "int32" or "bool"
 * @param shape the dimensions, row-major (TF's layout: a Conv2D kernel is [kh, kw, Cin, Cout]); empty for a scalar
 * @param quantization the stored dtype when quantized ("uint8", "uint16", "float16"), else null
 * @param floats the values of a float32 tensor (dequantized if quantized), else null
 * @param ints the values of an int32 or bool tensor, else null
 */
public record TfjsTensor(String name, String dtype, long[] shape, String quantization, float[] floats, int[] ints) {
    public TfjsTensor {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** Elements: the product of the shape (1 for a scalar). */
    public long elements() {
        long n = 1;
        for (long d : shape) n *= d;
        return n;
    }

    /** The float values; fails for an integer tensor. */
    public float[] requireFloats() {
        if (floats == null) throw new IllegalStateException(name + " is " + dtype + ", not float32");
        return floats;
    }

    /** The integer values; fails for a float tensor. */
    public int[] requireInts() {
        if (ints == null) throw new IllegalStateException(name + " is " + dtype + ", not int32");
        return ints;
    }

    @Override
    public String toString() {
        return name + " " + dtype + Arrays.toString(shape)
                + (quantization == null ? "" : " (stored " + quantization + ")");
    }
}
