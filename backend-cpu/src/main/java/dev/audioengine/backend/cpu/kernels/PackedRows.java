package dev.audioengine.backend.cpu.kernels;

/**
 * An A operand (M x K) packed ahead of time into the GEMM's {@link Gemm#MR}-row panels, k-major over the whole of K:
 * element (m, k) of panel p = m / MR sits at {@code p·K·MR + k·MR + m % MR}, zero past M. Any k slice of a panel is
 * exactly what {@link Gemm} packs per call, so a product over it skips that packing: for a constant A that many
 * products read (the per-bin spectra of {@link ConvSpectra}, the DFT matrices of {@link Conv1dSpectral}).
 */
final class PackedRows {
    final int m, k, panels;
    final float[] data;

    private PackedRows(int m, int k) {
        this.m = m;
        this.k = k;
        this.panels = (m + Gemm.MR - 1) / Gemm.MR;
        this.data = new float[Math.toIntExact((long) panels * k * Gemm.MR)];
    }

    /** Packs all of {@code a}. */
    static PackedRows of(MatrixSource a) {
        PackedRows p = new PackedRows(a.rows(), a.cols());
        float[] row = new float[Math.max(1, Gemm.MR * p.k)];
        for (int q = 0; q < p.panels; q++) {
            int m0 = q * Gemm.MR;
            a.packPanel(m0, Math.min(Gemm.MR, p.m - m0), 0, p.k, p.data, q * p.k * Gemm.MR, Gemm.MR, row);
        }
        return p;
    }

    /** Index of element (k0, 0) of panel {@code p}. */
    int offset(int p, int k0) { return (p * k + k0) * Gemm.MR; }
}
