package dev.audioengine.api.tensor;

import java.util.Arrays;
import java.util.Locale;

/**
 * Element types. Block types (Q8_0, Q4_0) use ggml's byte layout so GGUF weights can be used
 * as they are: Q8_0 is {f16 scale, 32 x int8}, 34 bytes per 32 values; Q4_0 is
 * {f16 scale, 16 bytes of packed nibbles}, 18 bytes per 32 values, value = (nibble - 8) * scale,
 * low nibbles holding elements 0..15 and high nibbles elements 16..31.
 */
public enum DType {
    F32(4, 1),
    F16(2, 1),
    BF16(2, 1),
    I32(4, 1),
    I8(1, 1),
    Q8_0(34, 32),
    Q4_0(18, 32);

    private final int blockBytes;
    private final int blockSize;

    DType(int blockBytes, int blockSize) {
        this.blockBytes = blockBytes;
        this.blockSize = blockSize;
    }

    /** Bytes of one block (one element for plain types). */
    public int blockBytes() {
        return blockBytes;
    }

    /** Elements per block: 1 for plain types, 32 for Q8_0 and Q4_0. */
    public int blockSize() {
        return blockSize;
    }

    public boolean isQuantized() {
        return blockSize > 1;
    }

    public boolean isFloat() {
        return this == F32 || this == F16 || this == BF16;
    }

    /** Bytes needed for {@code elements} contiguous values; must be a whole number of blocks. */
    public long bytesFor(long elements) {
        if (elements % blockSize != 0) {
            throw new IllegalArgumentException(
                    this + " stores values in blocks of " + blockSize + "; " + elements + " is not a multiple");
        }
        return elements / blockSize * blockBytes;
    }

    public static DType parse(String name) {
        for (DType t : values()) {
            if (t.name().equalsIgnoreCase(name)) return t;
        }
        throw new IllegalArgumentException("unknown dtype '" + name + "'; valid: "
                + Arrays.toString(values()).toLowerCase(Locale.ROOT));
    }
}
