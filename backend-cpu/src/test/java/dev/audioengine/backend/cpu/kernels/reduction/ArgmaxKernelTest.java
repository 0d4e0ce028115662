package dev.audioengine.backend.cpu.kernels.reduction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The row scan in chunks ({@link ArgmaxKernel#CHUNK}) against one plain scan: ties across chunk boundaries go to the
 * first, a NaN wins wherever it falls, rows of odd lengths and strides.
 */
class ArgmaxKernelTest {
    private static int reference(float[] v) {
        int best = 0;
        for (int j = 1; j < v.length && !Float.isNaN(v[best]); j++) if (v[j] > v[best] || Float.isNaN(v[j])) best = j;
        return best;
    }

    @Test
    void chunkedScanFindsTheFirstLargest() {
        long seed = Seeds.fresh();
        SplittableRandom r = new SplittableRandom(seed);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 400; round++) {
                int n = r.nextInt(1, 4 * ArgmaxKernel.CHUNK + 3), stride = r.nextInt(1, 4);
                float[] v = new float[n];
                // few distinct values: the largest repeats, in other chunks too
                for (int j = 0; j < n; j++) v[j] = r.nextInt(round % 2 == 0 ? 4 : 1000) - 500;
                if (r.nextInt(4) == 0) v[r.nextInt(n)] = Float.NaN;
                if (r.nextInt(4) == 0) v[r.nextInt(n)] = Float.NaN;
                if (r.nextInt(8) == 0) java.util.Arrays.fill(v, 7f);
                MemorySegment seg = arena.allocate(4L * n * stride);
                for (int j = 0; j < n; j++) seg.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, (long) j * stride, v[j]);
                CpuTensor x =
                        new CpuTensor(seg, 0, DType.F32, 1, new long[] {1, 1, 1, n}, new long[] {0, 0, 0, stride});
                assertThat(ArgmaxKernel.firstLargest(x, 0, stride, n))
                        .as("n %d, stride %d, round %d (seed %d)", n, stride, round, seed)
                        .isEqualTo(reference(v));
            }
        }
    }
}
