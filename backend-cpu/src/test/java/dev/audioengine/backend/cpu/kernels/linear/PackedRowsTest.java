package dev.audioengine.backend.cpu.kernels.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A pre-packed A operand ({@link PackedRows}, what the DFT convolution's constants are) gives the bits of the same A
 * packed per call, at heights that leave a partial 12-row panel, depths over several k slices, and packed into a
 * shared array at an offset (the blocked path per call; fewer rows take the mat-vec paths, another summation
 * order); both agree with float64. A GEMM sized for pre-packed A refuses the other products.
 */
class PackedRowsTest {
    private final Random random = new Random(7);

    @Test
    void prePackedAGivesTheBitsOfPackingPerCall() {
        try (WorkerPool pool = new WorkerPool(2)) {
            for (int[] mnk : new int[][] {{37, 45, 2100}, {12, 33, 7}, {9, 64, 1024}, {130, 3, 1025}, {5, 40, 300}}) {
                int m = mnk[0], n = mnk[1], k = mnk[2];
                float[] a = gaussian(m * k), b = gaussian(n * k);
                ArrayMatrix am = new ArrayMatrix(a, 0, m, k, k), bm = new ArrayMatrix(b, 0, n, k, k);
                float[] perCall = new float[m * n], packed = new float[m * n];
                new Gemm(pool, m, n, k).multiply(am, bm, new MatrixSink.Array(perCall, 0, n));
                int start = 3 * Gemm.MR; // behind another operand's panels, as ConvSpectra stores its bins
                float[] shared = new float[start + (int) PackedRows.floats(m, k)];
                Gemm.overPackedA(pool, n, k)
                        .multiply(PackedRows.into(am, shared, start), bm, new MatrixSink.Array(packed, 0, n));
                // up to SMALL_M rows the per-call product takes the mat-vec paths, another summation order
                if (m > Gemm.SMALL_M) assertThat(packed).as("%dx%dx%d", m, n, k).isEqualTo(perCall);
                double err = 0, ref = 0;
                for (int i = 0; i < m; i++)
                    for (int j = 0; j < n; j++) {
                        double want = 0;
                        for (int kk = 0; kk < k; kk++) want += (double) a[i * k + kk] * b[j * k + kk];
                        err += (packed[i * n + j] - want) * (packed[i * n + j] - want);
                        ref += want * want;
                    }
                assertThat(err / ref)
                        .as("NMSE %dx%dx%d against float64", m, n, k)
                        .isLessThan(1e-10);
            }
        }
    }

    @Test
    void aGemmSizedForPrePackedARefusesOtherProducts() {
        try (WorkerPool pool = new WorkerPool(1)) {
            ArrayMatrix a = new ArrayMatrix(new float[4], 0, 2, 2, 2);
            assertThatThrownBy(
                            () -> Gemm.overPackedA(pool, 2, 2).multiply(a, a, new MatrixSink.Array(new float[4], 0, 2)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pre-packed A");
        }
    }

    private float[] gaussian(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) random.nextGaussian();
        return v;
    }
}
