package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.threads.WorkerPool;

/**
 * A constant Conv1d weight in the frequency domain, for one overlap-save plan of {@link Conv1dSpectral}: for each bin
 * f, the Cout x 2·Cin A operand [Re conj H_f | Im conj H_f], conj H_f[co, ci] = Σ_k w[co, ci, k]·e^{+2πi·f·k·dil/n}
 * (the conjugate makes the circular product a cross-correlation, as Conv1d is), packed into the GEMM's panels.
 * Computed once (a GEMM of the taps with the cosine and sine tables) and shared by every graph over the weight.
 */
final class ConvSpectra {
    private final PackedRows[] bins;
    private final long floats;

    private ConvSpectra(PackedRows[] bins, long floats) {
        this.bins = bins;
        this.floats = floats;
    }

    PackedRows bin(int f) {
        return bins[f];
    }

    /** Floats held (all bins in one array): bins·Cout (rounded up to whole panels)·2·Cin. */
    long floats() {
        return floats;
    }

    /** Floats {@link #of} will hold for this geometry and plan. */
    static long floatsFor(Conv1dKernel.Geometry g, Conv1dSpectral.Plan p) {
        return p.bins() * PackedRows.floats(g.cout(), 2 * g.cin());
    }

    static ConvSpectra of(CpuTensor w, Conv1dKernel.Geometry g, Conv1dSpectral.Plan p, WorkerPool pool) {
        int cout = g.cout(), cin = g.cin(), k = g.k(), pairs = cout * cin, twoBins = 2 * p.bins();
        float[] taps = new float[pairs * k];
        for (int co = 0, at = 0; co < cout; co++) {
            for (int ci = 0; ci < cin; ci++)
                for (int kk = 0; kk < k; kk++) taps[at++] = w.getFloat(w.offset(0, co, ci, kk));
        }
        float[] trig = new float[twoBins * k];
        for (int f = 0; f < p.bins(); f++) {
            for (int kk = 0; kk < k; kk++) {
                double angle = 2 * Math.PI * ((long) f * kk * g.dil() % p.n()) / p.n();
                trig[2 * f * k + kk] = (float) Math.cos(angle);
                trig[(2 * f + 1) * k + kk] = (float) Math.sin(angle);
            }
        }
        // spectrum[(co·cin + ci)·2·bins + 2f + part]
        float[] spectrum = new float[pairs * twoBins];
        new Gemm(pool, pairs, twoBins, k)
                .multiply(
                        new ArrayMatrix(taps, 0, pairs, k, k),
                        new ArrayMatrix(trig, 0, twoBins, k, k),
                        new MatrixSink.Array(spectrum, 0, twoBins));
        PackedRows[] bins = new PackedRows[p.bins()];
        int each = Math.toIntExact(PackedRows.floats(cout, 2 * cin));
        float[] data = new float[Math.toIntExact(floatsFor(g, p))];
        for (int f = 0; f < bins.length; f++)
            bins[f] = PackedRows.into(new BinView(spectrum, f, cout, cin, twoBins), data, f * each);
        return new ConvSpectra(bins, data.length);
    }

    /** Bin f as Cout rows of [Re | Im] over the input channels. */
    private record BinView(float[] spectrum, int f, int rows, int cin, int twoBins) implements MatrixSource {
        @Override
        public int cols() {
            return 2 * cin;
        }

        @Override
        public void readRow(int r, int k0, int len, float[] dst, int off) {
            for (int j = 0; j < len; j++) {
                int col = k0 + j, part = col >= cin ? 1 : 0, ci = col - part * cin;
                dst[off + j] = spectrum[(r * cin + ci) * twoBins + 2 * f + part];
            }
        }
    }
}
