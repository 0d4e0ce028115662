package dev.audioengine.api.tensor;

import java.util.Arrays;
import java.util.Locale;

/**
 * Element types. Block types (Q8_0, Q4_0, Q5_0, Q5_1, Q4_1) use ggml's byte layout so GGUF and whisper.cpp weights
 * can be used as they are: Q8_0 is {f16 scale, 32 x int8}, 34 bytes per 32 values; Q4_0 is
 * {f16 scale, 16 bytes of packed nibbles}, 18 bytes per 32 values, value = (nibble - 8) * scale,
 * low nibbles holding elements 0..15 and high nibbles elements 16..31. Q5_0 is {f16 scale d, u32 of fifth bits,
 * 16 bytes of nibbles}, 22 bytes, value = (q - 16) * d; Q5_1 is {f16 d, f16 minimum m, u32 fifth bits, nibbles},
 * 24 bytes, value = q * d + m; Q4_1 is {f16 d, f16 m, nibbles}, 20 bytes, value = q * d + m. In the 5-bit types
 * bit j of the little-endian u32 is the fifth bit of element j; nibbles are laid out as in Q4_0.
 * <p>
 * The k-quants hold super-blocks of 256 values (ggml's {@code block_q*_K}), so their rows must be multiples of 256.
 * Q6_K, 210 bytes: {@code ql[128]} (low four bits), {@code qh[64]} (high two bits), 16 signed 8-bit scales, f16
 * d; element i (of 256) has scale {@code scales[i / 16]} and value d * scales[i / 16] * (q - 32), with q 0..63: in
 * each half h (128 values) element 128h + 32c + l (c 0..3, l 0..31) takes its low bits from the nibble
 * {@code ql[64h + l + 32 (c % 2)]} (low nibble for c &lt; 2, high for c &ge; 2) and its high bits from bits 2c, 2c + 1 of
 * {@code qh[32h + l]}. Q4_K, 144 bytes: f16 d, f16 dmin, 12 bytes of eight 6-bit scales and eight 6-bit minimums
 * (sub-block j &lt; 4: scale {@code s[j] & 63}, minimum {@code s[j + 4] & 63}; j &ge; 4: scale
 * {@code s[j + 4] & 15 | (s[j - 4] >> 6) << 4}, minimum {@code s[j + 4] >> 4 | (s[j] >> 6) << 4}), {@code qs[128]};
 * sub-block j holds 32 values, value = d * scale_j * q - dmin * min_j, q 0..15 in the low nibbles of
 * {@code qs[32 (j / 2) + l]} for even j and the high nibbles for odd j. Q5_K, 176 bytes: as Q4_K with {@code qh[32]}
 * between the scales and {@code qs}: bit j of {@code qh[l]} is the fifth bit (16) of element 32j + l, q 0..31.
 * Q3_K, 110 bytes: {@code hmask[32]}, {@code qs[64]}, 12 bytes of sixteen 6-bit scales, f16 d; element e has low two
 * bits {@code (qs[32 (e / 128) + e % 32] >> 2 ((e % 128) / 32)) & 3}, q = those bits, less 4 unless bit e / 32 of
 * {@code hmask[e % 32]} is set, and value d * (scale_{e / 16} - 32) * q; scale j's low four bits are the low nibble of
 * byte j (j &lt; 8) or the high nibble of byte j - 8, its high two bits bits 2 (j / 4), 2 (j / 4) + 1 of byte
 * 8 + j % 4. Q2_K, 84 bytes: 16 bytes of scales (low nibble) and minimums (high nibble) per 16 values, {@code qs[64]},
 * f16 d, f16 dmin; element e has q {@code (qs[32 (e / 128) + e % 32] >> 2 ((e % 128) / 32)) & 3} and value
 * {@code d * (scales[e / 16] & 15) * q - dmin * (scales[e / 16] >> 4)}.
 */
public enum DType {
    /** IEEE 754 single precision, 4 bytes; the type graph arithmetic and host results use. */
    F32(4, 1),
    /** IEEE 754 half precision, 2 bytes (range about ±65504); a storage type for weights and activations. */
    F16(2, 1),
    /** bfloat16, 2 bytes: F32's exponent range with 8 bits of mantissa; a storage type for weights. */
    BF16(2, 1),
    /** Signed 32-bit integer, 4 bytes: token ids, indices, lengths. */
    I32(4, 1),
    /** Signed 8-bit integer, 1 byte. */
    I8(1, 1),
    /** ggml's Q8_0 block: an f16 scale and 32 int8 values, 34 bytes per 32 values; weights only. */
    Q8_0(34, 32),
    /** ggml's Q4_0 block: an f16 scale and 32 packed 4-bit values, 18 bytes per 32 values; weights only. */
    Q4_0(18, 32),
    /** ggml's Q5_0 block: an f16 scale, 32 fifth bits and 32 nibbles, 22 bytes per 32 values; weights only. */
    Q5_0(22, 32),
    /** ggml's Q5_1 block: an f16 scale, an f16 minimum, 32 fifth bits and 32 nibbles, 24 bytes per 32; weights only. */
    Q5_1(24, 32),
    /** ggml's Q4_1 block: an f16 scale, an f16 minimum and 32 nibbles, 20 bytes per 32 values; weights only. */
    Q4_1(20, 32),
    /** ggml's Q6_K super-block: 256 6-bit values in 16 sub-blocks of 16 with int8 scales and an f16 d, 210 bytes. */
    Q6_K(210, 256),
    /** ggml's Q4_K super-block: 256 4-bit values in 8 sub-blocks with 6-bit scales and minimums, 144 bytes. */
    Q4_K(144, 256),
    /** ggml's Q5_K super-block: 256 5-bit values in 8 sub-blocks with 6-bit scales and minimums, 176 bytes. */
    Q5_K(176, 256),
    /** ggml's Q3_K super-block: 256 3-bit values in 16 sub-blocks with 6-bit scales and an f16 d, 110 bytes. */
    Q3_K(110, 256),
    /** ggml's Q2_K super-block: 256 2-bit values in 16 sub-blocks with 4-bit scales and minimums, 84 bytes. */
    Q2_K(84, 256);

    private final int blockBytes;
    private final int blockSize;

    DType(int blockBytes, int blockSize) {
        this.blockBytes = blockBytes;
        this.blockSize = blockSize;
    }

    /**
     * Bytes of one block (one element for plain types).
     *
     * @return 1, 2 or 4 for plain types; 34 for Q8_0, 18 for Q4_0, 22 for Q5_0, 24 for Q5_1, 20 for Q4_1, 210 for
     *     Q6_K, 144 for Q4_K, 176 for Q5_K, 110 for Q3_K, 84 for Q2_K
     */
    public int blockBytes() {
        return blockBytes;
    }

    /**
     * Elements per block: 1 for plain types, 32 for the 32-value block types, 256 for the k-quants.
     *
     * @return the number of values one block of {@link #blockBytes()} bytes holds
     */
    public int blockSize() {
        return blockSize;
    }

    /**
     * Whether values are stored in blocks that share a scale (Q8_0, Q4_0, Q5_0, Q5_1, Q4_1 and the k-quants); such
     * tensors need their innermost
     * dimension to be a multiple of {@link #blockSize()}.
     *
     * @return true for the block-quantized types
     */
    public boolean isQuantized() {
        return blockSize > 1;
    }

    /**
     * Whether this is a plain floating-point type.
     *
     * @return true for F32, F16 and BF16; false for the integer and the block-quantized types
     */
    public boolean isFloat() {
        return this == F32 || this == F16 || this == BF16;
    }

    /**
     * Bytes needed for {@code elements} contiguous values; must be a whole number of blocks.
     *
     * @param elements a count of values, a multiple of {@link #blockSize()}
     * @return the storage size in bytes
     * @throws IllegalArgumentException if {@code elements} is not a whole number of blocks
     */
    public long bytesFor(long elements) {
        if (elements % blockSize != 0) {
            throw new IllegalArgumentException(
                    this + " stores values in blocks of " + blockSize + "; " + elements + " is not a multiple");
        }
        return elements / blockSize * blockBytes;
    }

    /**
     * The type with this name, ignoring case ({@code "f16"}, {@code "Q8_0"}), as command lines and files spell it.
     *
     * @param name a constant's name in any case
     * @return the constant of that name
     * @throws IllegalArgumentException if no type has that name; the message lists the valid names
     */
    public static DType parse(String name) {
        for (DType t : values()) {
            if (t.name().equalsIgnoreCase(name)) return t;
        }
        throw new IllegalArgumentException("unknown dtype '" + name + "'; valid: "
                + Arrays.toString(values()).toLowerCase(Locale.ROOT));
    }
}
