package dev.audioengine.api.tensor;

/** Conversions for the 16-bit float storage types: IEEE half (F16) and bfloat16 (BF16). */
public final class HalfFloats {
    private HalfFloats() {}

    /**
     * Widens an IEEE half; exact (every half is a float).
     *
     * @param bits the 16 bits of an F16 value, as stored
     * @return the same number as a float, infinities and NaN included
     * @see Float#float16ToFloat(short)
     */
    public static float f16ToFloat(short bits) {
        return Float.float16ToFloat(bits);
    }

    /**
     * Round-to-nearest-even, as the hardware converters and ggml do.
     *
     * @param v any float; magnitudes above about 65504 become infinity, tiny ones subnormal or zero
     * @return the 16 bits of the nearest F16 value
     */
    public static short floatToF16(float v) {
        return Float.floatToFloat16(v);
    }

    /**
     * Widens a bfloat16; exact (it is the upper half of a float).
     *
     * @param bits the 16 bits of a BF16 value, as stored
     * @return the same number as a float
     */
    public static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xffff) << 16);
    }

    /**
     * Round-to-nearest-even; NaN stays a quiet NaN (PyTorch's rule).
     *
     * @param v any float; bfloat16 keeps float's range, so only precision is lost
     * @return the 16 bits of the nearest BF16 value
     */
    public static short floatToBf16(float v) {
        int bits = Float.floatToRawIntBits(v);
        if (Float.isNaN(v)) return (short) ((bits >>> 16) | 0x0040);
        int rounding = 0x7fff + ((bits >>> 16) & 1);
        return (short) ((bits + rounding) >>> 16);
    }
}
