package dev.audioengine.api.tensor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HalfFloatsTest {
    @Test
    void f16KnownBitPatterns() {
        assertThat(HalfFloats.floatToF16(1f)).isEqualTo((short) 0x3c00);
        assertThat(HalfFloats.floatToF16(-2f)).isEqualTo((short) 0xc000);
        assertThat(HalfFloats.floatToF16(65504f)).isEqualTo((short) 0x7bff);
        assertThat(HalfFloats.floatToF16(1e6f)).isEqualTo((short) 0x7c00); // overflow to +inf
        assertThat(HalfFloats.f16ToFloat((short) 0x0001)).isEqualTo(5.9604645e-8f); // smallest subnormal
    }

    @Test
    void bf16RoundsToNearestEven() {
        // 1 + 2^-8 lies exactly between two bf16 values (1 and 1 + 2^-7): ties go to the even one, 1.
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(1.00390625f))).isEqualTo(1f);
        // 1 + 3·2^-8 is a tie between 1 + 2^-7 (odd mantissa) and 1 + 2^-6 (even): goes up.
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(1.01171875f))).isEqualTo(1.015625f);
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(Math.nextUp(1.00390625f))))
                .isEqualTo(1.0078125f); // just above the tie
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(Float.NaN))).isNaN();
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(Float.NEGATIVE_INFINITY)))
                .isEqualTo(Float.NEGATIVE_INFINITY);
    }
}
