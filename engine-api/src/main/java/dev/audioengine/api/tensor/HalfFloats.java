package dev.audioengine.api.tensor;

/** Conversions for the 16-bit float storage types: IEEE half (F16) and bfloat16 (BF16). */
public final class HalfFloats {
    private HalfFloats() {}

    public static float f16ToFloat(short bits) {
        return Float.float16ToFloat(bits);
    }

    /** Round-to-nearest-even, as the hardware converters and ggml do. */
    public static short floatToF16(float v) {
        return Float.floatToFloat16(v);
    }

    public static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xffff) << 16);
    }

    /** Round-to-nearest-even; NaN stays a quiet NaN (PyTorch's rule). */
    public static short floatToBf16(float v) {
        int bits = Float.floatToRawIntBits(v);
        if (Float.isNaN(v)) return (short) ((bits >>> 16) | 0x0040);
        int rounding = 0x7fff + ((bits >>> 16) & 1);
        return (short) ((bits + rounding) >>> 16);
    }
}
