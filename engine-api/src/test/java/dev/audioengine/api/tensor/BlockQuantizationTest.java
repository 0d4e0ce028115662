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

    @Test
    void rowsMustBeWholeBlocks() {
        assertThatThrownBy(() -> HostTensor.allocate(DType.Q8_0, Shape.of(2, 33)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32");
    }
}
