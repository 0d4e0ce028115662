package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.KernelContext;
import dev.audioengine.backend.cpu.kernels.RunScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * Conv1d with stride 1 and one group by overlap-save through the DFT. The output is cut into blocks of L steps;
 * block b reads the window of N = L + span − 1 input steps from b·L (span = (K − 1)·dil + 1), and the circular
 * cross-correlation of that window with the zero-stuffed kernel is right on its first L outputs. All three stages
 * are GEMMs: the DFT matrix times the windows (N → bins 0..N/2, real and imaginary parts), each bin's channel
 * mixing (the complex product Y_f = X_f · conj(H_f) over input channels, done as one real product of the weight's
 * [Re conj H | Im conj H] with columns [Re X | −Im X] and [Im X | Re X]), and the inverse DFT keeping L outputs.
 * The constant operands (DFT matrices, spectra) are A, packed once ({@link PackedRows}); the data is B, laid out so
 * that the GEMM packs it by copying runs of whole vectors.
 * <p>
 * Per output this is about 4·(N/2 + 1)/L · Cin·Cout multiply-adds instead of K·Cin·Cout, plus transforms that
 * grow with Cin + Cout only: for Kokoro's generator (K = 7 and 11, dilations 1-5, 128 and 256 channels) a few
 * times fewer. {@link #plan} picks L from a cost estimate and declines where direct convolution is cheaper (K = 3, few
 * channels). The weight's spectra are computed once per backend ({@link ConvSpectra}, held by {@link PanelCache});
 * the blocks go {@link #BLOCKS} at a time through arrays the compiled run shares ({@link RunScratch}).
 */
final class Conv1dSpectral {
    /** Blocks transformed and mixed together: each bin's product has 2·BLOCKS rows. */
    static final int BLOCKS = 64;
    /** Block lengths tried: multiples of the GEMM's 32-column panel, as they are the inverse product's N. */
    private static final int[] LENGTHS = {32, 64, 96, 128, 192, 256};
    /** The estimate must come to at most this share of direct convolution's multiply-adds (the rest pays for packing). */
    private static final double WORTH = 0.7;

    private static final int XS = 0, YS = 1, XPAD = 2;
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    /** Block length l, window n = l + span − 1, and bins = n/2 + 1 frequencies. */
    record Plan(int span, int l, int n, int bins) {
        static Plan of(int span, int l) {
            int n = l + span - 1;
            return new Plan(span, l, n, n / 2 + 1);
        }

        /** Multiply-adds per output step: the bin products, both transforms and the scalar packing around them. */
        double cost(int cin, int cout) {
            return (4.0 * bins * cin * cout + 2.0 * bins * n * cin + 16.0 * bins * cin) / l + 2.0 * bins * cout;
        }

        /** Rows of input per block group past its blocks (the last window reaches span − 1 steps beyond them). */
        int extraRows() {
            return (span - 1 + l - 1) / l;
        }
    }

    /**
     * The plan for a stride-1, single-group convolution, or null where direct convolution is cheaper. Among the
     * lengths within 10 % of the cheapest, the one with the fewest bins wins (the spectra are bins·Cout·2·Cin floats).
     */
    static Plan plan(Conv1dKernel.Geometry g) {
        if (g.groups() != 1 || g.stride() != 1 || g.cin() < 16 || g.cout() < 16) return null;
        int span = (g.k() - 1) * g.dil() + 1;
        double best = Double.MAX_VALUE;
        for (int l : LENGTHS) best = Math.min(best, Plan.of(span, l).cost(g.cin(), g.cout()));
        Plan chosen = null;
        for (int l : LENGTHS) {
            Plan p = Plan.of(span, l);
            if (p.cost(g.cin(), g.cout()) <= 1.1 * best && (chosen == null || p.bins < chosen.bins)) chosen = p;
        }
        boolean worth = chosen.cost(g.cin(), g.cout()) <= WORTH * g.k() * (double) g.cin() * g.cout();
        return worth && g.tout() >= 2 * chosen.l ? chosen : null;
    }

    private final Conv1dKernel.Geometry g;
    private final Plan p;
    private final CpuTensor x, out;
    private final ConvSpectra spectra;
    private final RunScratch scratch;
    private final Gemm forward, mix, inverse;
    /** The DFT matrix: row 2f is cos(2π·f·j/n), row 2f + 1 is −sin(2π·f·j/n), over window position j. */
    private final PackedRows dft;
    /** The inverse (l rows x 2·bins): y[j] = Σ_f a_f/n · (Re Y_f·cos(2π·f·j/n) − Im Y_f·sin(2π·f·j/n)), a_f = 1 or 2. */
    private final PackedRows idft;

    Conv1dSpectral(
            Conv1dKernel.Geometry g, Plan p, CpuTensor x, CpuTensor out, ConvSpectra spectra, KernelContext ctx) {
        this.g = g;
        this.p = p;
        this.x = x;
        this.out = out;
        this.spectra = spectra;
        this.scratch = ctx.scratch();
        int twoBins = 2 * p.bins;
        this.forward = Gemm.overPackedA(ctx.pool(), g.cin() * (BLOCKS + p.extraRows()), p.n);
        this.mix = Gemm.overPackedA(ctx.pool(), 2 * BLOCKS, 2 * g.cin());
        this.inverse = Gemm.overPackedA(ctx.pool(), g.cout() * BLOCKS, twoBins);
        float[] d = new float[twoBins * p.n];
        for (int f = 0; f < p.bins; f++) {
            for (int j = 0; j < p.n; j++) {
                double angle = 2 * Math.PI * ((long) f * j % p.n) / p.n;
                d[2 * f * p.n + j] = (float) Math.cos(angle);
                d[(2 * f + 1) * p.n + j] = (float) -Math.sin(angle);
            }
        }
        this.dft = PackedRows.of(new ArrayMatrix(d, 0, twoBins, p.n, p.n));
        float[] inv = new float[p.l * twoBins];
        for (int j = 0; j < p.l; j++) {
            for (int f = 0; f < p.bins; f++) {
                double weight = (f == 0 || 2 * f == p.n ? 1.0 : 2.0) / p.n;
                double angle = 2 * Math.PI * ((long) f * j % p.n) / p.n;
                inv[j * twoBins + 2 * f] = (float) (weight * Math.cos(angle));
                inv[j * twoBins + 2 * f + 1] = (float) (-weight * Math.sin(angle));
            }
        }
        this.idft = PackedRows.of(new ArrayMatrix(inv, 0, p.l, twoBins, twoBins));
    }

    /** y of batch b (overwritten; no bias). */
    void run(int b) {
        int blocksTotal = (g.tout() + p.l - 1) / p.l;
        for (int first = 0; first < blocksTotal; first += BLOCKS) {
            int blocks = Math.min(BLOCKS, blocksTotal - first);
            int rows = blocks + p.extraRows(), windows = g.cin() * rows;
            float[] xpad = scratch.floats(XPAD, windows * p.l + p.n);
            float[] xs = scratch.floats(XS, 2 * p.bins * windows);
            float[] ys = scratch.floats(YS, 2 * p.bins * blocks * g.cout());
            fillInput(b, first, rows, xpad);
            // xs[(2f + part)·windows + ci·rows + i]: part 0 the real, 1 the imaginary part of bin f of window (ci, i)
            forward.multiply(dft, new Windows(xpad, p.l, windows, p.n), new MatrixSink.Array(xs, 0, windows));
            // ys[f·cout·2·blocks + co·2·blocks + part·blocks + i]
            for (int f = 0; f < p.bins; f++) {
                mix.multiply(
                        spectra.bin(f),
                        new MixColumns(xs, f, blocks, rows, g.cin()),
                        new MatrixSink.Array(ys, 2 * f * g.cout() * blocks, 2 * blocks));
            }
            inverse.multiply(
                    idft, new BinRows(ys, blocks, g.cout(), 2 * p.bins), new BlockSink(out, b, first, blocks, g, p.l));
        }
    }

    /**
     * xpad[ci·rows·l + q] = x[b, ci, first·l − pad + q] for q < rows·l (zeros outside the input), so the window of
     * block i of channel ci starts at (ci·rows + i)·l: one row stride for every window. The tail past the last channel
     * is zero for the last window's overhang.
     */
    private void fillInput(int b, int first, int rows, float[] xpad) {
        int pitch = rows * p.l, start = first * p.l - g.pad();
        long ts = x.strides()[3];
        for (int ci = 0; ci < g.cin(); ci++) {
            int at = ci * pitch, lo = Math.max(0, -start), hi = Math.min(pitch, g.t() - start);
            if (hi <= lo) {
                Arrays.fill(xpad, at, at + pitch, 0f);
                continue;
            }
            Arrays.fill(xpad, at, at + lo, 0f);
            long row = x.offset(0, b, ci, 0);
            if (ts == 1) {
                MemorySegment.copy(
                        x.segment(), CpuTensor.F32, x.base() + (row + start + lo) * 4L, xpad, at + lo, hi - lo);
            } else {
                for (int q = lo; q < hi; q++) xpad[at + q] = x.getFloat(row + (start + q) * ts);
            }
            Arrays.fill(xpad, at + hi, at + pitch, 0f);
        }
        Arrays.fill(xpad, g.cin() * pitch, g.cin() * pitch + p.n, 0f);
    }

    /** dst[at + i] = ±src[from + i] for i < len, in whole vectors and a masked tail. */
    static void copyRun(float[] src, int from, float[] dst, int at, int len, boolean negate) {
        int i = 0;
        for (int upper = S.loopBound(len); i < upper; i += S.length()) {
            FloatVector v = FloatVector.fromArray(S, src, from + i);
            (negate ? v.neg() : v).intoArray(dst, at + i);
        }
        if (i < len) {
            VectorMask<Float> m = S.indexInRange(i, len);
            FloatVector v = FloatVector.fromArray(S, src, from + i, m);
            (negate ? v.neg() : v).intoArray(dst, at + i, m);
        }
    }

    /** Window w (row w) is xpad[w·l .. w·l + n): B of the forward product, packed by a transposing copy. */
    private record Windows(float[] xpad, int l, int rows, int cols) implements MatrixSource {
        @Override
        public void readRow(int r, int k0, int len, float[] dst, int off) {
            System.arraycopy(xpad, r * l + k0, dst, off, len);
        }

        @Override
        public void packPanel(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] row) {
            for (int i = 0; i < rows; i++) {
                int from = (r0 + i) * l + k0;
                for (int kk = 0, at = off + i; kk < kc; kk++, at += width) dst[at] = xpad[from + kk];
            }
            if (rows < width)
                for (int kk = 0; kk < kc; kk++) Arrays.fill(dst, off + kk * width + rows, off + (kk + 1) * width, 0f);
        }
    }

    /**
     * B of bin f's channel product: row (part, i) for block i, column (inPart, ci); part 0 is [Re X | −Im X], part 1
     * [Im X | Re X]. In xs a column's rows are at most two runs (the part-0 blocks, then the part-1 blocks).
     */
    private record MixColumns(float[] xs, int f, int blocks, int rowsPerChannel, int cin) implements MatrixSource {
        @Override
        public int rows() {
            return 2 * blocks;
        }

        @Override
        public int cols() {
            return 2 * cin;
        }

        @Override
        public void readRow(int r, int k0, int len, float[] dst, int off) {
            int part = r >= blocks ? 1 : 0, i = r - part * blocks, ld = cin * rowsPerChannel;
            for (int j = 0; j < len; j++) {
                int col = k0 + j, inPart = col >= cin ? 1 : 0, ci = col - inPart * cin;
                float v = xs[(2 * f + (part ^ inPart)) * ld + ci * rowsPerChannel + i];
                dst[off + j] = part == 0 && inPart == 1 ? -v : v;
            }
        }

        @Override
        public void packPanel(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] row) {
            int ld = cin * rowsPerChannel, split = Math.max(0, Math.min(rows, blocks - r0));
            for (int kk = 0; kk < kc; kk++) {
                int col = k0 + kk, inPart = col >= cin ? 1 : 0, ci = col - inPart * cin, at = off + kk * width;
                int re = 2 * f * ld + ci * rowsPerChannel, im = re + ld;
                if (split > 0) copyRun(xs, (inPart == 0 ? re : im) + r0, dst, at, split, inPart == 1);
                if (split < rows)
                    copyRun(xs, (inPart == 0 ? im : re) + r0 + split - blocks, dst, at + split, rows - split, false);
                if (rows < width) Arrays.fill(dst, at + rows, at + width, 0f);
            }
        }
    }

    /** B of the inverse product: row (co, i), column 2f + part, at ys[f·cout·2·blocks + co·2·blocks + part·blocks + i]. */
    private record BinRows(float[] ys, int blocks, int cout, int cols) implements MatrixSource {
        @Override
        public int rows() {
            return cout * blocks;
        }

        private int index(int r, int col) {
            int co = r / blocks, i = r - co * blocks;
            return (col >> 1) * cout * 2 * blocks + co * 2 * blocks + (col & 1) * blocks + i;
        }

        @Override
        public void readRow(int r, int k0, int len, float[] dst, int off) {
            for (int j = 0; j < len; j++) dst[off + j] = ys[index(r, k0 + j)];
        }

        /** Each column's rows are runs of one channel's blocks. */
        @Override
        public void packPanel(int r0, int rows, int k0, int kc, float[] dst, int off, int width, float[] row) {
            for (int kk = 0; kk < kc; kk++) {
                int at = off + kk * width;
                for (int done = 0; done < rows; ) {
                    int r = r0 + done, i = r % blocks, run = Math.min(rows - done, blocks - i);
                    copyRun(ys, index(r, k0 + kk), dst, at + done, run, false);
                    done += run;
                }
                if (rows < width) Arrays.fill(dst, at + rows, at + width, 0f);
            }
        }
    }

    /**
     * C[j, (co, i)] of the inverse product is output (first + i)·l + j of channel co; trimmed at Tout. A tile column
     * is a run of consecutive outputs: one masked gather from the tile and one masked store each.
     */
    private record BlockSink(CpuTensor out, int batch, int first, int blocks, Conv1dKernel.Geometry g, int l)
            implements MatrixSink {
        /** Lane r reads tile row r of a column, for the GEMM's tiles (NR floats a row). */
        private static final int[] TILE_COLUMN = new int[S.length()];

        static {
            for (int r = 0; r < TILE_COLUMN.length; r++) TILE_COLUMN[r] = r * Gemm.NR;
        }

        @Override
        public void store(int m0, int n0, int rows, int cols, float[] tile, int ldt, boolean accumulate) {
            MemorySegment seg = out.segment();
            boolean gather = ldt == Gemm.NR && rows <= S.length();
            VectorMask<Float> whole = S.indexInRange(0, rows);
            for (int c = 0; c < cols; c++) {
                int n = n0 + c, co = n / blocks, i = n - co * blocks;
                int t0 = (first + i) * l + m0, count = Math.min(rows, g.tout() - t0);
                if (count <= 0) continue;
                long at = out.base() + (((long) batch * g.cout() + co) * g.tout() + t0) * 4L;
                if (gather) {
                    VectorMask<Float> m = count == rows ? whole : S.indexInRange(0, count);
                    FloatVector v = FloatVector.fromArray(S, tile, c, TILE_COLUMN, 0, m);
                    if (accumulate) v = v.add(FloatVector.fromMemorySegment(S, seg, at, ByteOrder.nativeOrder(), m));
                    v.intoMemorySegment(seg, at, ByteOrder.nativeOrder(), m);
                    continue;
                }
                for (int r = 0; r < count; r++) {
                    float v = tile[r * ldt + c];
                    if (accumulate) v += seg.get(CpuTensor.F32, at + r * 4L);
                    seg.set(CpuTensor.F32, at + r * 4L, v);
                }
            }
        }
    }
}
