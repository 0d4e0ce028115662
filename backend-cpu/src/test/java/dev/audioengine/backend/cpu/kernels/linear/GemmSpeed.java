package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;

/**
 * Not a test: GFLOP/s of one thread's blocked GEMM over a constant weight in panels (as Moonshine's encoder runs its
 * projections: a few hundred frames against a weight the PanelCache holds), beside the bare 12 x 32 micro-kernel over
 * the same panels (no packing, no stores): the gap between the two is the GEMM's own overhead. {@code -Dcopies=N}
 * cycles through N copies of the weight, so that they are read from memory rather than the caches. Run from
 * backend-cpu/ after {@code mvn test-compile -pl backend-cpu -am}: {@code java --add-modules jdk.incubator.vector -cp
 * target/classes:target/test-classes:../engine-api/target/classes dev.audioengine.backend.cpu.kernels.GemmSpeed
 * [M,N,K ...]}.
 */
public final class GemmSpeed {
    public static void main(String[] args) {
        String[] shapes = args.length > 0
                ? args
                : new String[] {
                    "294,288,288", "294,1152,288", "294,288,1152", "588,416,416", "588,1664,416", "588,416,1664"
                };
        WorkerPool pool = new WorkerPool(1);
        Random r = new Random(1);
        for (String s : shapes) {
            int[] d = Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
            int m = d[0], n = d[1], k = d[2];
            float[] a = new float[m * k], b = new float[n * k];
            for (int i = 0; i < a.length; i++) a[i] = r.nextFloat() - 0.5f;
            for (int i = 0; i < b.length; i++) b[i] = r.nextFloat() - 0.5f;
            int copies = Integer.getInteger("copies", 1);
            PackedPanels[] all = new PackedPanels[copies];
            for (int i = 0; i < copies; i++) all[i] = PackedPanels.of(new ArrayMatrix(b, 0, n, k, k));
            MemorySegment c = Arena.global().allocate(4L * m * n, 64);
            Gemm gemm = new Gemm(pool, m, n, k);
            MatrixSource as = new ArrayMatrix(a, 0, m, k, k);
            MatrixSink cs = new MatrixSink.Segment(c, 0, n);
            double flop = 2.0 * m * n * k;
            int reps = (int) Math.max(3, 4e9 / flop);
            double[] g = new double[8];
            for (int round = 0; round < g.length; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < reps; i++) gemm.multiply(as, all[i % copies], cs);
                g[round] = flop * reps / (System.nanoTime() - t0);
            }
            Arrays.sort(g, 4, 8);
            // the bare micro-kernel over the same panels: every (A panel, B panel) pair once, no packing, no stores
            float[] aPanels = new float[(m + 11) / 12 * 12 * k], tile = new float[12 * Gemm.NR];
            new ArrayMatrix(a, 0, m, k, k).packPanel(0, Math.min(12, m), 0, k, aPanels, 0, 12, new float[12 * k]);
            int mp = (m + 11) / 12, np = all[0].panels;
            double[] u = new double[8];
            for (int round = 0; round < u.length; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < reps; i++) {
                    PackedPanels pp = all[i % copies];
                    for (int q = 0; q < np; q++)
                        for (int p = 0; p < mp; p++) {
                            Gemm.microKernel12(aPanels, 0, pp.data, pp.offset(q, 0), k, tile);
                        }
                }
                u[round] = 2.0 * mp * 12 * np * Gemm.NR * k * reps / (System.nanoTime() - t0);
            }
            Arrays.sort(u, 4, 8);
            System.out.printf(
                    "%4d x %4d x %4d  blocked %.1f GFLOP/s (last rounds %.1f-%.1f), micro-kernel alone %.1f%n",
                    m, n, k, (g[5] + g[6]) / 2, g[4], g[7], (u[5] + u[6]) / 2);
        }
    }
}
