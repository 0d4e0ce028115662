package dev.audioengine.backend.cpu.kernels.linear;

import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.cpu.kernels.CpuKernel;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.threads.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * Constant weights that tall products read, decoded once into the GEMM's F32 panels and shared by
 * every graph of a backend that reads the same weight. Without it the blocked GEMM decodes a
 * quantized or half-float weight and scatters it k-major into panels on every run: for Moonshine's
 * encoder (a few hundred frames against 288 x 288 Q8_0 weights) that was a large part of the product.
 * Sharing matters because a graph may be compiled many times over the same weights (Moonshine
 * compiles its encoder per window length). The panels hold exactly the values the per-run packing
 * would, so the products are bit-identical.
 * <p>
 * The copy is F32, four times a Q8_0 weight's bytes, so the cache holds at most {@link #MAX_BYTES} by default;
 * past that, products pack per run as before. Entries go when the buffer holding their weight is
 * freed ({@link #forget}); a bound kernel keeps its own reference, so this never frees panels in use.
 * <p>
 * F32 weights of few-row products ({@link PackedPanels#worthPacking}) are kept here too ({@link #sharedOrOwn}),
 * so a graph compiled per input length does not pack them again. It also holds the frequency-domain form of
 * constant convolution weights ({@link ConvSpectra}), under the same
 * budget: bins·Cout·2·Cin floats each, 10-30 MB for Kokoro's 256-channel generator convs; past the budget
 * those convolutions run directly.
 */
public final class PanelCache {
    /**
     * Most bytes one backend keeps by default (Moonshine base's encoder panels need 78 MB, tiny's 28 MB; Kokoro's conv
     * spectra 220 MB); option cpu.weight-cache-mb sets it, within an eighth of the heap unless given.
     */
    public static final long MAX_BYTES = 512L << 20;

    /** One weight matrix inside a buffer: where it starts, its geometry and its storage type. */
    private record Key(long base, int n, int k, long rowStride, long colStride, DType dtype) {}

    /** One convolution weight inside a buffer, with the overlap-save window its spectra are for. */
    private record SpectraKey(long base, int cout, int cin, int k, int dil, int n, long[] strides) {
        @Override
        public boolean equals(Object o) {
            return o instanceof SpectraKey s
                    && s.base == base
                    && s.cout == cout
                    && s.cin == cin
                    && s.k == k
                    && s.dil == dil
                    && s.n == n
                    && java.util.Arrays.equals(s.strides, strides);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(base, cout, cin, k, dil, n, java.util.Arrays.hashCode(strides));
        }
    }

    private final Map<Long, Map<Key, PackedPanels>> byBuffer = new HashMap<>();
    private final Map<Long, Map<SpectraKey, ConvSpectra>> spectraByBuffer = new HashMap<>();
    private final long maxBytes;
    private long bytes;

    public PanelCache() {
        this(MAX_BYTES);
    }

    /** A cache holding at most {@code maxBytes} of panels. */
    public PanelCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Whether a product of {@code rows} rows over weight {@code w} should read cached panels: a constant
     * whose per-run decode is the cost (quantized blocks, half floats), in a product tall enough for the
     * blocked path; F32 weights are packed by a plain copy, and few-row products read quantized weights
     * in place (a decoder step must stream a quarter of F32's bytes, not four times them).
     */
    static boolean worthCaching(Tensor w, int rows) {
        DType t = w.dtype();
        return CpuKernel.isConstant(w) && rows > Gemm.SMALL_M && (t.isQuantized() || t == DType.F16 || t == DType.BF16);
    }

    /**
     * The panels of the {@code n x k} matrix of {@code w} at element offset 0 with the given strides,
     * packed on first use; null when the cache is full (the caller then packs per run).
     */
    synchronized PackedPanels panels(CpuTensor w, int n, int k, long rowStride, long colStride) {
        MemorySegment seg = w.segment();
        Key key = new Key(w.base(), n, k, rowStride, colStride, w.dtype());
        Map<Key, PackedPanels> inBuffer = byBuffer.computeIfAbsent(seg.address(), a -> new HashMap<>());
        PackedPanels p = inBuffer.get(key);
        if (p != null) return p;
        long need = 4L * ((n + Gemm.NR - 1) / Gemm.NR) * Gemm.NR * k;
        if (bytes + need > maxBytes) return null;
        p = PackedPanels.of(new TensorMatrix(w, 0, n, k, rowStride, colStride));
        inBuffer.put(key, p);
        bytes += need;
        return p;
    }

    /**
     * The panels of a constant weight that {@link PackedPanels#worthPacking} chose: shared through the cache, or
     * packed for the caller alone when the cache is full. Kokoro compiles its text graph per sentence length, and
     * packing its F32 weights for every graph was 4 % of its time.
     */
    public PackedPanels sharedOrOwn(CpuTensor w, int n, int k, long rowStride, long colStride) {
        PackedPanels p = panels(w, n, k, rowStride, colStride);
        return p != null ? p : PackedPanels.of(new TensorMatrix(w, 0, n, k, rowStride, colStride));
    }

    /**
     * The spectra of constant conv weight {@code w} for plan {@code p}, computed on first use (on {@code pool});
     * null when they would not fit the budget (the caller then convolves directly).
     */
    synchronized ConvSpectra spectra(CpuTensor w, Conv1dKernel.Geometry g, Conv1dSpectral.Plan p, WorkerPool pool) {
        SpectraKey key = new SpectraKey(
                w.base(), g.cout(), g.cin(), g.k(), g.dil(), p.n(), w.strides().clone());
        Map<SpectraKey, ConvSpectra> inBuffer =
                spectraByBuffer.computeIfAbsent(w.segment().address(), a -> new HashMap<>());
        ConvSpectra s = inBuffer.get(key);
        if (s != null) return s;
        long need = 4L * ConvSpectra.floatsFor(g, p);
        if (bytes + need > maxBytes) return null;
        s = ConvSpectra.of(w, g, p, pool);
        inBuffer.put(key, s);
        bytes += 4L * s.floats();
        return s;
    }

    /** Drops the panels and spectra of weights held in {@code buffer}, which is being freed (its address may be reused). */
    public synchronized void forget(MemorySegment buffer) {
        Map<Key, PackedPanels> gone = byBuffer.remove(buffer.address());
        if (gone != null) for (PackedPanels p : gone.values()) bytes -= 4L * p.data.length;
        Map<SpectraKey, ConvSpectra> spectra = spectraByBuffer.remove(buffer.address());
        if (spectra != null) for (ConvSpectra s : spectra.values()) bytes -= 4L * s.floats();
    }

    /** Bytes of panels held now. */
    synchronized long bytes() {
        return bytes;
    }
}
