package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.backend.cpu.kernels.CpuKernel;

/**
 * A constant B operand (N x K) packed once, when the graph is compiled, into the GEMM's
 * {@link Gemm#NR}-column panels, k-major over the whole of K: element (n, k) of panel
 * p = n / NR sits at {@code p·K·NR + k·NR + n % NR}, zero-padded past N. Any k slice of a
 * panel is then exactly what {@link Gemm} would have packed for it, and a few-row product reads
 * B as unit-stride vectors with no lane sums.
 * <p>
 * Packing pays where the per-run packing (or the per-row lane sums of the mat-vec path) is a
 * visible share of the product: few rows of A, as in streaming models. It costs a copy of the
 * weight, so only weights up to {@link #MAX_FLOATS} are packed.
 */
public final class PackedPanels {
    /** Largest weight copied into panels (16 MB of floats): beyond it a mat-vec is bound by memory, not by lane sums. */
    static final long MAX_FLOATS = 1L << 22;
    /** Products with fewer rows than this use packed constant weights; taller ones amortize packing per run. */
    static final int BELOW_ROWS = 64;

    final int n, k, panels;
    final float[] data;

    private PackedPanels(int n, int k) {
        this.n = n;
        this.k = k;
        this.panels = (n + Gemm.NR - 1) / Gemm.NR;
        this.data = new float[Math.toIntExact((long) panels * k * Gemm.NR)];
    }

    /** Packs all of {@code b}. */
    static PackedPanels of(MatrixSource b) {
        PackedPanels p = new PackedPanels(b.rows(), b.cols());
        float[] row = new float[Math.max(1, p.k)];
        for (int q = 0; q < p.panels; q++) {
            int n0 = q * Gemm.NR;
            b.packPanel(n0, Math.min(Gemm.NR, p.n - n0), 0, p.k, p.data, q * p.k * Gemm.NR, Gemm.NR, row);
        }
        return p;
    }

    /** Whether a product of {@code rows} rows should pack its weight {@code w} (N x K) at compile time. */
    public static boolean worthPacking(Tensor w, int rows, long n, long k) {
        return CpuKernel.isConstant(w) && !w.dtype().isQuantized() && rows < BELOW_ROWS && n * k <= MAX_FLOATS;
    }

    /** Index of element (k0, 0) of panel {@code p}. */
    int offset(int p, int k0) {
        return (p * k + k0) * Gemm.NR;
    }
}
