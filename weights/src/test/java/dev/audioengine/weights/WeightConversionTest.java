package dev.audioengine.weights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeightConversionTest {
    private final long seed = System.nanoTime();

    @TempDir
    Path dir;

    private float[] gaussian(int n) {
        Random r = new Random(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) (r.nextGaussian() * Math.exp(r.nextGaussian() * 3));
        return v;
    }

    /** 2 x 40000 = 80000 values: more than one conversion chunk, and rows of whole Q8_0 blocks. */
    @Test
    void f32ToEachWeightTypeMatchesAWholeTensorConversion() {
        Shape shape = Shape.of(2, 40000);
        float[] values = gaussian(80000);
        try (HostTensor src = HostTensor.ofFloats(shape, values)) {
            for (DType target : new DType[] {DType.F16, DType.BF16, DType.Q8_0}) {
                try (HostTensor expected = HostTensor.convert(target, shape, values);
                        HostTensor got = WeightConversion.converted(src, target)) {
                    assertThat(got.dtype()).isEqualTo(target);
                    assertThat(got.shape()).isEqualTo(shape);
                    assertThat(got.ownsMemory()).isTrue();
                    assertThat(got.data().toArray(ValueLayout.JAVA_BYTE))
                            .as("%s, seed %d", target, seed)
                            .isEqualTo(expected.data().toArray(ValueLayout.JAVA_BYTE));
                }
            }
        }
    }

    @Test
    void f16AndQuantizedSourcesWidenExactly() {
        Shape shape = Shape.of(3, 96);
        float[] values = gaussian(3 * 96);
        for (DType source : new DType[] {DType.F16, DType.BF16, DType.Q4_0, DType.Q8_0}) {
            try (HostTensor src = HostTensor.convert(source, shape, values);
                    HostTensor wide = WeightConversion.converted(src, DType.F32)) {
                // the narrow value, reconstructed from the raw bytes, is exactly representable in f32
                float[] expected = ReferenceDecoding.floats(source, src.data().toArray(ValueLayout.JAVA_BYTE), 3 * 96);
                float[] got = new float[3 * 96];
                ByteBuffer.wrap(wide.data().toArray(ValueLayout.JAVA_BYTE))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .asFloatBuffer()
                        .get(got);
                assertThat(got).as("%s, seed %d", source, seed).containsExactly(expected);
            }
        }
    }

    @Test
    void q8_0OnlyForRowsOfWholeBlocksAndIntegersStayAsTheyAre() {
        try (HostTensor bias = HostTensor.ofFloats(Shape.of(7), gaussian(7));
                HostTensor oddRows = HostTensor.ofFloats(Shape.of(32, 33), gaussian(32 * 33));
                HostTensor scalar = HostTensor.ofFloats(Shape.of(), 1f);
                HostTensor ids = HostTensor.ofInts(Shape.of(64), new int[64])) {
            for (HostTensor keep : new HostTensor[] {bias, oddRows, scalar}) {
                assertThat(WeightConversion.resultType(keep.dtype(), keep.shape(), DType.Q8_0))
                        .isEqualTo(DType.F32);
                assertThat(WeightConversion.converted(keep, DType.Q8_0)).isSameAs(keep);
            }
            assertThat(WeightConversion.converted(ids, DType.F16)).isSameAs(ids);
            assertThat(WeightConversion.converted(ids, DType.Q8_0)).isSameAs(ids);
            assertThat(WeightConversion.converted(bias, DType.F32)).isSameAs(bias);
            try (HostTensor half = WeightConversion.converted(bias, DType.F16)) {
                assertThat(half.dtype()).isEqualTo(DType.F16);
            }
        }
        assertThatThrownBy(() -> WeightConversion.resultType(DType.F32, Shape.of(32), DType.Q4_0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("f32, f16, bf16 or q8_0");
    }

    @Test
    void convertedCopiesOutliveTheMappedFile() throws IOException {
        float[] values = gaussian(64);
        byte[] raw = new byte[64 * 4];
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(values);
        Path p = dir.resolve("w.safetensors");
        Files.write(
                p,
                new SafetensorsTestWriter()
                        .add("w", "F32", new long[] {2, 32}, raw)
                        .toBytes());
        HostTensor q;
        try (WeightFile f = WeightFiles.open(p)) {
            q = WeightConversion.converted(f.get("w"), DType.Q8_0);
        }
        try (q;
                HostTensor expected = HostTensor.convert(DType.Q8_0, Shape.of(2, 32), values)) {
            assertThat(q.toFloatArray()).containsExactly(expected.toFloatArray());
        }
    }
}
