package dev.audioengine.backend.cpu.kernels.linear;

/**
 * An A operand (M x K) packed ahead of time into the GEMM's {@link Gemm#MR}-row panels, k-major over the whole of K:
 * element (m, k) of panel p = m / MR sits at {@code p·K·MR + k·MR + m % MR}, zero past M. Any k slice of a panel is
 * exactly what {@link Gemm} packs per call, so a product over it skips that packing: for a constant A that many
 * products read (the per-bin spectra of {@link ConvSpectra}, the DFT matrices of {@link Conv1dSpectral}).
 */
final class PackedRows {
    final int m, k, panels;
    final float[] data;
    /** Where panel 0 starts in {@link #data}: several operands may share one array. */
    private final int start;

    private PackedRows(int m, int k, float[] data, int start) {
        this.m = m;
        this.k = k;
        this.panels = (m + Gemm.MR - 1) / Gemm.MR;
        this.data = data;
        this.start = start;
    }

    /** Floats the panels of an {@code m x k} operand take. */
    static long floats(int m, int k) {
        return (long) ((m + Gemm.MR - 1) / Gemm.MR) * Gemm.MR * k;
    }

    /** Packs all of {@code a} into an array of its own. */
    static PackedRows of(MatrixSource a) {
        return into(a, new float[Math.toIntExact(floats(a.rows(), a.cols()))], 0);
    }

    /**
     * Packs all of {@code a} into {@code data} from {@code start} ({@link #floats} of them). One array for many operands
     * keeps the Java heap from losing up to half a region to each (G1 gives an array of half a region or more regions
     * of its own: Kokoro's 256-channel spectra are 512 KB a bin).
     */
    static PackedRows into(MatrixSource a, float[] data, int start) {
        PackedRows p = new PackedRows(a.rows(), a.cols(), data, start);
        float[] row = new float[Math.max(1, Gemm.MR * p.k)];
        for (int q = 0; q < p.panels; q++) {
            int m0 = q * Gemm.MR;
            a.packPanel(m0, Math.min(Gemm.MR, p.m - m0), 0, p.k, data, start + q * p.k * Gemm.MR, Gemm.MR, row);
        }
        return p;
    }

    /** Index of element (k0, 0) of panel {@code p}. */
    int offset(int p, int k0) {
        return start + (p * k + k0) * Gemm.MR;
    }
}
