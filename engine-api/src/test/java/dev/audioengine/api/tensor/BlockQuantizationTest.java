package dev.audioengine.api.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BlockQuantizationTest {
    private final long seed = System.nanoTime();

    @Test
    void q8_0LayoutAndErrorBound() {
        Random r = new Random(seed);
        float[] x = new float[96];
        for (int i = 0; i < x.length; i++) x[i] = (float) r.nextGaussian() * 3;
        try (HostTensor q = HostTensor.convert(DType.Q8_0, Shape.of(3, 32), x)) {
            assertThat(q.byteSize()).isEqualTo(3 * 34);
            float[] back = q.toFloatArray();
            for (int b = 0; b < 3; b++) {
                float amax = 0;
                for (int i = 0; i < 32; i++) amax = Math.max(amax, Math.abs(x[b * 32 + i]));
                float d = HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, b * 34L));
                assertThat(d)
                        .as("block scale, seed %d", seed)
                        .isCloseTo(amax / 127f, org.assertj.core.data.Percentage.withPercentage(0.1));
                for (int i = 0; i < 32; i++) {
                    // rounding to the nearest step, plus the f16 rounding of the scale itself (127 steps * 2^-11
                    // relative)
                    assertThat(Math.abs(back[b * 32 + i] - x[b * 32 + i]))
                            .as("seed %d", seed)
                            .isLessThanOrEqualTo(d * 0.5f + amax * 1e-3f);
                }
            }
        }
    }

    @Test
    void q4_0MatchesGgmlRounding() {
        float[] x = new float[32];
        for (int i = 0; i < 32; i++) x[i] = i - 8; // max |v| is 23 (positive): d = 23 / -8
        try (HostTensor q = HostTensor.convert(DType.Q4_0, Shape.of(32), x)) {
            assertThat(q.byteSize()).isEqualTo(18);
            float d = HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, 0));
            assertThat(d).isCloseTo(-23f / 8f, org.assertj.core.data.Offset.offset(2e-3f));
            float[] back = q.toFloatArray();
            // the largest-magnitude value maps to nibble 0, i.e. exactly -8 * d
            assertThat(back[31]).isCloseTo(-8 * d, org.assertj.core.data.Offset.offset(1e-6f));
            for (int i = 0; i < 32; i++)
                assertThat(Math.abs(back[i] - x[i])).isLessThanOrEqualTo(Math.abs(d) / 2 + 1e-2f);
            // element 0 sits in the low nibble of byte 0, element 16 in its high nibble
            int b0 = q.data().get(ValueLayout.JAVA_BYTE, 2) & 0xff;
            assertThat((b0 & 0xf) - 8).isEqualTo(Math.round(x[0] / d));
            assertThat((b0 >>> 4) - 8).isEqualTo(Math.min(7, Math.round(x[16] / d)));
        }
    }

    /**
     * Q5_0, Q5_1 and Q4_1 on fresh values at a random scale, odd block count: each value comes back within half a step
     * (plus the f16 rounding of d and m), and the bytes decode, read here bit by bit from ggml's layout (element j's
     * fifth bit is bit j of the little-endian u32, its low four bits the low nibble of byte j, element 16 + j the high
     * nibble), to what dequantize gives. A wrong shift or scale index moves values by whole steps.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(names = {"Q5_0", "Q5_1", "Q4_1"})
    void minimumAndFiveBitTypesRoundTrip(DType type) {
        Random r = new Random(seed);
        int blocks = 5;
        float[] x = new float[blocks * 32];
        double scale = Math.pow(10, -2 + 4 * r.nextDouble());
        for (int i = 0; i < x.length; i++) x[i] = (float) (r.nextGaussian() * scale + (i < 32 ? 0 : scale * 0.5));
        for (int i = 64; i < 96; i++) x[i] = Math.abs(x[i]); // a one-signed block
        try (HostTensor q = HostTensor.convert(type, Shape.of(blocks * 32), x)) {
            assertThat(q.byteSize()).isEqualTo((long) blocks * type.blockBytes());
            float[] back = q.toFloatArray();
            boolean withMin = type != DType.Q5_0;
            int bits = type == DType.Q4_1 ? 4 : 5;
            for (int b = 0; b < blocks; b++) {
                long at = (long) b * type.blockBytes();
                float d = HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, at));
                float m = withMin ? HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, at + 2)) : 0;
                long nibbles = at + (withMin ? 4 : 2) + (bits == 5 ? 4 : 0);
                long fifth = at + (withMin ? 4 : 2);
                float lo = Float.MAX_VALUE, hi = -Float.MAX_VALUE;
                for (int i = 0; i < 32; i++) {
                    lo = Math.min(lo, x[b * 32 + i]);
                    hi = Math.max(hi, x[b * 32 + i]);
                }
                float amax = Math.max(Math.abs(lo), Math.abs(hi));
                for (int i = 0; i < 32; i++) {
                    int nib = q.data().get(ValueLayout.JAVA_BYTE, nibbles + (i % 16)) & 0xff;
                    int qv = i < 16 ? nib & 15 : nib >>> 4;
                    if (bits == 5) {
                        int byteOfBit = q.data().get(ValueLayout.JAVA_BYTE, fifth + i / 8) & 0xff;
                        qv |= ((byteOfBit >>> (i % 8)) & 1) << 4;
                    }
                    float want = withMin ? qv * d + m : (qv - 16) * d;
                    assertThat(back[b * 32 + i])
                            .as("%s block %d value %d, seed %d", type, b, i, seed)
                            .isEqualTo(want);
                    // half a step, plus the f16 rounding of d (times up to 31 steps) and of m; Q5_0's scale maps the
                    // largest magnitude to -16, so values of the other sign beyond 15.5 steps clip to 15 steps
                    float step = Math.abs(d), err = Math.abs(back[b * 32 + i] - x[b * 32 + i]);
                    float clip = withMin ? 0 : Math.abs(x[b * 32 + i]) - 15 * step;
                    assertThat(err)
                            .as("%s block %d value %d error, seed %d", type, b, i, seed)
                            .isLessThanOrEqualTo(Math.max(step * 0.5f, clip) + amax * 2e-3f);
                }
            }
        }
    }

    /**
     * The k-quants on fresh values at a random scale over three super-blocks (one of them one-signed, one with a quiet
     * sub-block): every value comes back within one step of its sub-block (read from the layout: Q6_K's int8 scale of
     * values 16i..16i+15 times d, Q4_K/Q5_K's 6-bit scale of values 32j.. times d) plus 2 % of the super-block's largest
     * magnitude (the rounding of sub-block scales to multiples of d). A scale or nibble read from the wrong place moves
     * values by a sizeable part of that magnitude.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(names = {"Q6_K", "Q4_K", "Q5_K", "Q3_K", "Q2_K"})
    void kQuantsRoundTrip(DType type) {
        Random r = new Random(seed);
        int supers = 3;
        float[] x = new float[supers * 256];
        double scale = Math.pow(10, -2 + 4 * r.nextDouble());
        for (int i = 0; i < x.length; i++) x[i] = (float) (r.nextGaussian() * scale);
        for (int i = 256; i < 512; i++) x[i] = Math.abs(x[i]) + (float) scale; // one-signed, away from 0
        for (int i = 512; i < 544; i++) x[i] *= 0.01f; // a quiet sub-block beside loud ones
        try (HostTensor q = HostTensor.convert(type, Shape.of(supers * 256), x)) {
            assertThat(q.byteSize()).isEqualTo((long) supers * type.blockBytes());
            float[] back = q.toFloatArray();
            for (int b = 0; b < supers; b++) {
                long at = (long) b * type.blockBytes();
                float amax = 0;
                for (int i = 0; i < 256; i++) amax = Math.max(amax, Math.abs(x[b * 256 + i]));
                for (int i = 0; i < 256; i++) {
                    float step;
                    if (type == DType.Q6_K) {
                        float d = HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, at + 208));
                        step = Math.abs(d * q.data().get(ValueLayout.JAVA_BYTE, at + 192 + i / 16));
                    } else if (type == DType.Q3_K) {
                        // sub-block j's 6-bit scale: low nibble of byte j (high nibble of byte j - 8 from j = 8),
                        // high two bits at 2 (j / 4) of byte 8 + j % 4, less 32
                        int j = i / 16;
                        int lo = (q.data().get(ValueLayout.JAVA_BYTE, at + 96 + j % 8) & 0xff) >> (j < 8 ? 0 : 4);
                        int hi = (q.data().get(ValueLayout.JAVA_BYTE, at + 96 + 8 + j % 4) & 0xff) >> (2 * (j / 4));
                        float d = HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, at + 108));
                        step = Math.abs(d * (((lo & 15) | ((hi & 3) << 4)) - 32));
                    } else if (type == DType.Q2_K) {
                        float d = HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, at + 80));
                        step = d * (q.data().get(ValueLayout.JAVA_BYTE, at + i / 16) & 15);
                    } else {
                        float d = HalfFloats.f16ToFloat(q.data().get(ValueLayout.JAVA_SHORT_UNALIGNED, at));
                        step = d * BlockQuantization.scaleK4(q.data(), at + 4, i / 32, false);
                    }
                    float err = Math.abs(back[b * 256 + i] - x[b * 256 + i]);
                    assertThat(err)
                            .as("%s super-block %d value %d, seed %d", type, b, i, seed)
                            .isLessThanOrEqualTo(step + 0.02f * amax);
                }
            }
        }
    }

    @Test
    void kQuantRowsMustBeWholeSuperBlocks() {
        assertThatThrownBy(() -> HostTensor.allocate(DType.Q6_K, Shape.of(2, 96)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("256");
    }

    @Test
    void rowsMustBeWholeBlocks() {
        assertThatThrownBy(() -> HostTensor.allocate(DType.Q8_0, Shape.of(2, 33)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32");
    }
}
