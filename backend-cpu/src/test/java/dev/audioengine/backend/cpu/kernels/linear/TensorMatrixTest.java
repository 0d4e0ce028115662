package dev.audioengine.backend.cpu.kernels.linear;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HalfFloats;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * The row decoders the GEMM packs from must be bit-exact: every one of the 65536 F16 and BF16
 * patterns (subnormals, infinities, NaN) through both the vector and the scalar tail, and
 * quantized rows against engine-api's own dequantizers, also from an odd starting block.
 */
class TensorMatrixTest {
    @Test
    void halfFloatsDecodeExactlyForEveryBitPattern() {
        for (DType dt : new DType[] {DType.F16, DType.BF16}) {
            int n = 65536 + 7; // the last few go through the scalar tail
            try (HostTensor h = HostTensor.allocate(dt, Shape.of(1, n))) {
                for (int i = 0; i < n; i++) h.data().set(ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i, (short) i);
                float[] got = new float[n];
                matrix(h, 1, n).readRow(0, 0, n, got, 0);
                for (int i = 0; i < n; i++) {
                    float want = dt == DType.F16 ? HalfFloats.f16ToFloat((short) i) : HalfFloats.bf16ToFloat((short) i);
                    if (Float.isNaN(want))
                        assertThat(got[i]).as("%s pattern %04x", dt, i & 0xffff).isNaN();
                    else
                        assertThat(Float.floatToRawIntBits(got[i]))
                                .as("%s pattern %04x", dt, i & 0xffff)
                                .isEqualTo(Float.floatToRawIntBits(want));
                }
            }
        }
    }

    @Test
    void quantizedRowsMatchTheReferenceDequantizers() {
        long seed = Seeds.fresh();
        RandomTensors rnd = new RandomTensors(seed);
        for (DType dt : new DType[] {DType.Q8_0, DType.Q4_0}) {
            int rows = 3, cols = 32 * 9;
            try (HostTensor h = rnd.of(dt, Shape.of(rows, cols), -3, 3)) {
                float[] all = h.toFloatArray();
                TensorMatrix m = matrix(h, rows, cols);
                for (int r = 0; r < rows; r++) {
                    float[] got = new float[cols - 64];
                    m.readRow(r, 64, cols - 64, got, 0); // starts at block 2
                    float[] want = new float[cols - 64];
                    System.arraycopy(all, r * cols + 64, want, 0, want.length);
                    assertThat(got)
                            .as("%s row %d; %s", dt, r, Seeds.describe(seed))
                            .containsExactly(want);
                }
                float[] direct = new float[cols];
                long rowBytes = dt.bytesFor(cols);
                MemorySegment seg = h.data();
                if (dt == DType.Q8_0) BlockQuantization.dequantizeQ8_0(seg, rowBytes, direct, 0, cols);
                else BlockQuantization.dequantizeQ4_0(seg, rowBytes, direct, 0, cols);
                float[] got = new float[cols];
                m.readRow(1, 0, cols, got, 0);
                assertThat(got).as("%s; %s", dt, Seeds.describe(seed)).containsExactly(direct);
            }
        }
    }

    private static TensorMatrix matrix(HostTensor h, int rows, int cols) {
        CpuTensor t =
                new CpuTensor(h.data(), 0, h.dtype(), 2, new long[] {1, 1, rows, cols}, new long[] {0, 0, cols, 1});
        return new TensorMatrix(t, 0, rows, cols, cols, 1);
    }

    /**
     * The A panel of row-major F32 activations by the masked gathers: each k's rows in place, zeros past the rows up
     * to the panel's width, nothing written past the panel (the gathers spill into the next k's slot); odd row counts,
     * widths and depths.
     */
    @Test
    void gatheredPanelsHoldTheRowsAndNothingElse() {
        long seed = Seeds.fresh();
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        int lanes = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length();
        for (int round = 0; round < 300; round++) {
            int width = r.nextInt((lanes + 1) / 2, lanes + 1), rows = r.nextInt(2, width + 1);
            int kc = r.nextInt(2, 300), off = r.nextInt(0, 40);
            float[] rowsOfK = new float[rows * kc];
            for (int i = 0; i < rowsOfK.length; i++) rowsOfK[i] = (float) r.nextGaussian();
            int size = off + kc * width + 2 * lanes;
            float[] a = new float[size];
            java.util.Arrays.fill(a, Float.NaN);
            TensorMatrix.gather(rowsOfK, rows, kc, a, off, width);
            String what = String.format("rows %d, width %d, kc %d, off %d (seed %d)", rows, width, kc, off, seed);
            for (int kk = 0; kk < kc; kk++)
                for (int i = 0; i < width; i++)
                    assertThat(a[off + kk * width + i])
                            .as("%s: k %d, lane %d", what, kk, i)
                            .isEqualTo(i < rows ? rowsOfK[i * kc + kk] : 0f);
            for (int i = 0; i < size; i++)
                if (i < off || i >= off + kc * width)
                    assertThat(a[i]).as("%s: outside the panel, %d", what, i).isNaN();
        }
    }
}
