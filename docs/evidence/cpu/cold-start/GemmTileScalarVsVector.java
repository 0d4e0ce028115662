// Evidence for docs/PERFORMANCE.md, "Less for C2 to compile" (issue 26): how long C2 takes to compile the GEMM's
// 12 x 32 register tile in its Vector API form (Gemm.microKernel12, copied here) against a plain scalar form, and how
// fast each runs once compiled. Not part of the build; run with ./run.sh in this folder, which prints each run's
// elapsed times and the C2 compiles of the kernel (from JFR's jdk.Compilation events). Output: run-*.txt here.
import jdk.incubator.vector.*;
public class GemmTileScalarVsVector {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length(), NR = 2 * L;
    static void vec(float[] a, int ao, float[] b, int bo, int kc, float[] tile) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S);
        FloatVector c60 = FloatVector.zero(S), c61 = FloatVector.zero(S);
        FloatVector c70 = FloatVector.zero(S), c71 = FloatVector.zero(S);
        FloatVector c80 = FloatVector.zero(S), c81 = FloatVector.zero(S);
        FloatVector c90 = FloatVector.zero(S), c91 = FloatVector.zero(S);
        FloatVector c100 = FloatVector.zero(S), c101 = FloatVector.zero(S);
        FloatVector c110 = FloatVector.zero(S), c111 = FloatVector.zero(S);
        for (int kk = 0; kk < kc; kk++) {
            int ai = ao + kk * 12, bi = bo + kk * NR;
            FloatVector b0 = FloatVector.fromArray(S, b, bi), b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector x0 = FloatVector.broadcast(S, a[ai]); c00 = x0.fma(b0, c00); c01 = x0.fma(b1, c01);
            FloatVector x1 = FloatVector.broadcast(S, a[ai + 1]); c10 = x1.fma(b0, c10); c11 = x1.fma(b1, c11);
            FloatVector x2 = FloatVector.broadcast(S, a[ai + 2]); c20 = x2.fma(b0, c20); c21 = x2.fma(b1, c21);
            FloatVector x3 = FloatVector.broadcast(S, a[ai + 3]); c30 = x3.fma(b0, c30); c31 = x3.fma(b1, c31);
            FloatVector x4 = FloatVector.broadcast(S, a[ai + 4]); c40 = x4.fma(b0, c40); c41 = x4.fma(b1, c41);
            FloatVector x5 = FloatVector.broadcast(S, a[ai + 5]); c50 = x5.fma(b0, c50); c51 = x5.fma(b1, c51);
            FloatVector x6 = FloatVector.broadcast(S, a[ai + 6]); c60 = x6.fma(b0, c60); c61 = x6.fma(b1, c61);
            FloatVector x7 = FloatVector.broadcast(S, a[ai + 7]); c70 = x7.fma(b0, c70); c71 = x7.fma(b1, c71);
            FloatVector x8 = FloatVector.broadcast(S, a[ai + 8]); c80 = x8.fma(b0, c80); c81 = x8.fma(b1, c81);
            FloatVector x9 = FloatVector.broadcast(S, a[ai + 9]); c90 = x9.fma(b0, c90); c91 = x9.fma(b1, c91);
            FloatVector x10 = FloatVector.broadcast(S, a[ai + 10]); c100 = x10.fma(b0, c100); c101 = x10.fma(b1, c101);
            FloatVector x11 = FloatVector.broadcast(S, a[ai + 11]); c110 = x11.fma(b0, c110); c111 = x11.fma(b1, c111);
        }
        c00.intoArray(tile, 0 * NR); c01.intoArray(tile, 0 * NR + L);
        c10.intoArray(tile, 1 * NR); c11.intoArray(tile, 1 * NR + L);
        c20.intoArray(tile, 2 * NR); c21.intoArray(tile, 2 * NR + L);
        c30.intoArray(tile, 3 * NR); c31.intoArray(tile, 3 * NR + L);
        c40.intoArray(tile, 4 * NR); c41.intoArray(tile, 4 * NR + L);
        c50.intoArray(tile, 5 * NR); c51.intoArray(tile, 5 * NR + L);
        c60.intoArray(tile, 6 * NR); c61.intoArray(tile, 6 * NR + L);
        c70.intoArray(tile, 7 * NR); c71.intoArray(tile, 7 * NR + L);
        c80.intoArray(tile, 8 * NR); c81.intoArray(tile, 8 * NR + L);
        c90.intoArray(tile, 9 * NR); c91.intoArray(tile, 9 * NR + L);
        c100.intoArray(tile, 10 * NR); c101.intoArray(tile, 10 * NR + L);
        c110.intoArray(tile, 11 * NR); c111.intoArray(tile, 11 * NR + L);
    }
    // scalar form: rows of the tile as plain loops (C2's superword vectorizes the j loop)
    static void scalar(float[] a, int ao, float[] b, int bo, int kc, float[] tile) {
        java.util.Arrays.fill(tile, 0, 12 * NR, 0f);
        for (int kk = 0; kk < kc; kk++) {
            int ai = ao + kk * 12, bi = bo + kk * NR;
            for (int r = 0; r < 12; r++) {
                float x = a[ai + r];
                int t = r * NR;
                for (int j = 0; j < NR; j++) tile[t + j] += x * b[bi + j];
            }
        }
    }
    public static void main(String[] args) {
        boolean v = args[0].equals("vec");
        int kc = 288, calls = Integer.parseInt(args[1]);
        float[] a = new float[kc * 12], b = new float[kc * NR], tile = new float[12 * NR];
        java.util.Random rnd = new java.util.Random(1);
        for (int i = 0; i < a.length; i++) a[i] = rnd.nextFloat();
        for (int i = 0; i < b.length; i++) b[i] = rnd.nextFloat();
        long t0 = System.nanoTime(); double sum = 0;
        for (int c = 0; c < calls; c++) {
            if (v) vec(a, 0, b, 0, kc, tile); else scalar(a, 0, b, 0, kc, tile);
            sum += tile[c % tile.length];
            if (c == 99 || c == 999 || c == calls - 1) System.out.printf("%s calls=%d %.1f ms%n", args[0], c + 1, (System.nanoTime() - t0) / 1e6);
        }
        long t1 = System.nanoTime();
        for (int c = 0; c < 20000; c++) { if (v) vec(a, 0, b, 0, kc, tile); else scalar(a, 0, b, 0, kc, tile); sum += tile[0]; }
        System.out.printf("%s warm %.2f us/call (%.1f GFLOP/s) %f%n", args[0], (System.nanoTime() - t1) / 1e3 / 20000, 2.0 * kc * 12 * NR * 20000 / (System.nanoTime() - t1), sum);
    }
}
