package dev.audioengine.models.basicpitch;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.Shape;

/**
 * Basic Pitch (Spotify, ICASSP 2022) on the engine's ops: N windows of 43844 samples at 22050 Hz in, 172 frames of
 * contours, notes and onsets per window out. As the package's TF.js graph computes it:
 * <pre>
 * audio [N, 43844]
 *  → constant-Q transform (nnAudio's CQT2010v2: 309 bins from A0, 36 per octave, hop 256): 9 octaves, top first; each
 *    reflect-pads 128 and convolves with the 36 complex kernels of the top octave (length 256) at hop 256 / 2^k, then
 *    the signal is halved (zero pad 127, 256-tap low-pass, stride 2) for the next; octaves joined lowest first, the
 *    last 309 of 324 bins kept, × sqrt(kernel length), magnitude                              → [N, 309, 172]
 *  → NormalizedLog: 10·log10(x² + 1e-10), minus its minimum over the window, divided by its maximum over the window
 *    (0 where that is 0: DivNoNan); batch norm (one scale and offset)                         → [N, 172, 309]
 *  → harmonic stacking: 8 copies shifted by round(36·log2 h) bins for h = 0.5, 1, 2, ..., 7 (zero filled), 264 bins
 *                                                                                             → [N, 172, 8, 264]
 *  contours = sigmoid(conv 5×5 → 1 (relu(conv 3×39, 8 → 8 (stack))))                          → [N, 172, 264]
 *  notes    = sigmoid(conv 7×3 → 1 (relu(conv 7×7 stride (1, 3), 1 → 32 (contours))))        → [N, 172, 88]
 *  onsets   = sigmoid(conv 3×3, 33 → 1 ([notes, relu(conv 5×5 stride (1, 3), 8 → 32 (stack))]))→ [N, 172, 88]
 * </pre>
 * Every 2-D convolution is TF's SAME-padded one; here the layout is [N, T, C, F] (a frame's channels, each over
 * frequency) and a kh × kw convolution is one conv1d over frequency: the kh time-shifted copies of the input side by
 * side as kh·C channels, zero-padded along time and along frequency as SAME pads them. Batch norms are folded into
 * the convolutions in the file already (conv2d_1, conv2d_4).
 */
final class BasicPitchNetwork {
    static final int SAMPLE_RATE = 22050, HOP = 256;
    /** Samples per window: 2 s less one hop (the package's AUDIO_N_SAMPLES). */
    static final int WINDOW = SAMPLE_RATE * 2 - HOP;
    /** Frames per window, and frames of overlap between windows (half dropped at each side of a window). */
    static final int FRAMES = WINDOW / HOP + 1, OVERLAP_FRAMES = 30;
    /** Samples between window starts (the package's HOP_SIZE). */
    static final int WINDOW_HOP = WINDOW - OVERLAP_FRAMES * HOP;

    static final int OCTAVES = 9, KERNEL = 256, LOWPASS_PAD = 127;
    /** The halving's matrix form: outputs per frame, and frame length (256 + 2·15 rounded up to whole hops of 32). */
    static final int HALVING_OUTPUTS = 16, HALVING_FRAME = 288;

    static final int CQT_BINS = 309, CONTOUR_BINS = 264, NOTE_BINS = 88, HARMONICS = 8;
    static final String AUDIO = "audio", CONTOURS = "contours", NOTES = "notes", ONSETS = "onsets";

    private BasicPitchNetwork() {}

    /** The whole model on N windows: "audio" [N, 43844] → contours [N, 172, 264], notes and onsets [N, 172, 88]. */
    static Graph build(BasicPitchWeights w, int n) {
        GraphBuilder g = new GraphBuilder();
        Tensor audio = g.input(AUDIO, Shape.of(n, WINDOW));
        Tensor x = stack(g, w, logSpectrum(g, w, cqt(g, w, audio), n)); // [N, T, 8, 264]

        Tensor contour = conv(g, relu(g, conv(g, x, w.contour1, "contour1")), w.contourOut, "contour_out");
        contour = g.sigmoid(contour); // [N, T, 1, 264]
        Tensor notes = conv(g, g.relu(conv(g, contour, w.note1, "note1")), w.noteOut, "note_out");
        notes = g.sigmoid(notes); // [N, T, 1, 88]
        Tensor onset = g.relu(conv(g, x, w.onset1, "onset1")); // [N, T, 32, 88]
        Tensor onsets = g.sigmoid(conv(g, g.concat(2, notes, onset), w.onsetOut, "onset_out"));
        return g.build(
                g.reshape(contour, n, FRAMES, CONTOUR_BINS).named(CONTOURS),
                g.reshape(notes, n, FRAMES, NOTE_BINS).named(NOTES),
                g.reshape(onsets, n, FRAMES, NOTE_BINS).named(ONSETS));
    }

    private static Tensor relu(GraphBuilder g, Tensor x) {
        return g.relu(x);
    }

    /** The complex CQT, real and imaginary parts of the 309 kept bins: [N, 2, 309, T]. */
    private static Tensor cqt(GraphBuilder g, BasicPitchWeights w, Tensor audio) {
        long n = audio.dim(0);
        Tensor x = g.reshape(audio, n, 1, WINDOW);
        Tensor[] re = new Tensor[OCTAVES], im = new Tensor[OCTAVES];
        for (int k = 0; k < OCTAVES; k++) {
            Tensor padded = g.pad1d(x, PadMode.REFLECT, KERNEL / 2, KERNEL / 2);
            Tensor c = g.conv1d(padded, g.constant("cqt.kernel" + k, w.cqtKernels.get(k)), null, HOP >> k, 0, 1, 1);
            // lowest octave first, as nnAudio concatenates them
            re[OCTAVES - 1 - k] = g.slice(c, 1, 0, 36);
            im[OCTAVES - 1 - k] = g.slice(c, 1, 36, 72);
            if (k < OCTAVES - 1) x = halve(g, x, g.constant("cqt.lowpass" + k, w.lowpass.get(k)));
        }
        long all = 36L * OCTAVES;
        Tensor r = g.slice(g.concat(1, re), 1, all - CQT_BINS, all);
        Tensor i = g.slice(g.concat(1, im), 1, all - CQT_BINS, all);
        return g.concat(1, g.reshape(r, n, 1, CQT_BINS, FRAMES), g.reshape(i, n, 1, CQT_BINS, FRAMES));
    }

    /**
     * The graph's halving: zero pad 127 each side, the 256-tap low-pass at stride 2 ([N, 1, L] → [N, 1, L']). Written
     * as a matrix product over frames of 288 samples every 32, each giving 16 outputs through the banded filter
     * matrix, rather than as a conv1d with one output channel, which the CPU backend runs as matrix-vector products
     * over an implicit im2col: slower, and off from TF.js by up to 1e-4 in the outputs where this is 1e-6.
     */
    private static Tensor halve(GraphBuilder g, Tensor x, Tensor band) {
        long n = x.dim(0), padded = x.dim(2) + 2L * LOWPASS_PAD, out = (padded - KERNEL) / 2 + 1;
        int hop = 2 * HALVING_OUTPUTS, blocksPerFrame = HALVING_FRAME / hop;
        long rows = (out + HALVING_OUTPUTS - 1) / HALVING_OUTPUTS, blocks = rows + blocksPerFrame - 1;
        // zeros past the padding: whole blocks; the outputs that read them are cut off below
        Tensor p = g.pad(
                x,
                PadMode.ZERO,
                new long[] {0, 0, LOWPASS_PAD},
                new long[] {0, 0, blocks * hop - x.dim(2) - LOWPASS_PAD},
                0f);
        Tensor b = g.reshape(p, n, blocks, hop);
        Tensor[] parts = new Tensor[blocksPerFrame];
        for (int j = 0; j < blocksPerFrame; j++) parts[j] = g.slice(b, 1, j, j + rows);
        Tensor frames = g.concat(2, parts); // [N, rows, 288]: row r is samples 32r .. 32r + 287
        Tensor y = g.reshape(g.matmul(frames, band), n, rows * HALVING_OUTPUTS); // w is [N, K]: x · wᵀ
        return g.reshape(g.contiguous(g.slice(y, 1, 0, out)), n, 1, out);
    }

    /** Magnitude, NormalizedLog and the batch norm: [N, 2, 309, T] → [N, T, 309]. */
    private static Tensor logSpectrum(GraphBuilder g, BasicPitchWeights w, Tensor complex, int n) {
        Tensor scale = g.constant("cqt.scale", w.binScale); // [309, 1]
        Tensor re = g.mul(g.reshape(g.slice(complex, 1, 0, 1), n, CQT_BINS, FRAMES), scale);
        Tensor im = g.mul(g.reshape(g.slice(complex, 1, 1, 2), n, CQT_BINS, FRAMES), scale);
        Tensor magnitude = g.sqrt(g.add(g.mul(re, re), g.mul(im, im)));
        Tensor power = g.scale(g.mul(magnitude, magnitude), 1f, w.logEpsilon);
        Tensor db = g.scale(g.log(power), w.dbPerNeper); // 10·log10
        db = g.contiguous(g.permute(db, 0, 2, 1)); // [N, T, 309]
        Tensor flat = g.reshape(db, n, (long) FRAMES * CQT_BINS);
        Tensor min = g.scale(g.max(g.scale(flat, -1f), 1, true), -1f); // [N, 1]
        Tensor shifted = g.sub(flat, min);
        Tensor max = g.max(shifted, 1, true);
        // DivNoNan: 0 where the maximum is 0 (silence). Adding 1e-30 leaves any maximum above 1e-23 unchanged in
        // float32 and makes 0 / 0 into 0 / 1e-30 = 0.
        Tensor normalized = g.div(shifted, g.scale(max, 1f, 1e-30f));
        Tensor bn = g.scale(normalized, w.bnScale, w.bnOffset);
        return g.reshape(bn, n, FRAMES, CQT_BINS);
    }

    /** Harmonic stacking: [N, T, 309] → [N, T, 8, 264], copy h shifted by harmonicShifts[h] bins, zero filled. */
    private static Tensor stack(GraphBuilder g, BasicPitchWeights w, Tensor x) {
        long n = x.dim(0);
        Tensor[] copies = new Tensor[HARMONICS];
        for (int h = 0; h < HARMONICS; h++) {
            int s = w.harmonicShifts[h];
            Tensor c;
            if (s < 0) {
                c = g.pad(
                        g.slice(x, 2, 0, CONTOUR_BINS + s),
                        PadMode.ZERO,
                        new long[] {0, 0, -s},
                        new long[] {0, 0, 0},
                        0f);
            } else {
                long end = Math.min(CQT_BINS, s + CONTOUR_BINS);
                c = g.slice(x, 2, s, end);
                if (end - s < CONTOUR_BINS)
                    c = g.pad(c, PadMode.ZERO, new long[] {0, 0, 0}, new long[] {0, 0, CONTOUR_BINS - (end - s)}, 0f);
            }
            copies[h] = g.reshape(g.contiguous(c), n, FRAMES, 1, CONTOUR_BINS);
        }
        return g.concat(2, copies);
    }

    /**
     * TF's SAME-padded 2-D convolution (unit stride in time) on [N, T, Cin, F] → [N, T, Cout, ceil(F / stride)]: the
     * kh time-shifted copies as kh·Cin channels, one conv1d over frequency with the kernel as [Cout, kh·Cin, kw].
     */
    private static Tensor conv(GraphBuilder g, Tensor x, BasicPitchWeights.Conv c, String name) {
        long n = x.dim(0), t = x.dim(1), cin = x.dim(2), f = x.dim(3);
        if (cin != c.cin())
            throw new IllegalStateException(name + ": " + cin + " channels in, the kernel takes " + c.cin());
        int half = c.kh() / 2;
        Tensor rows;
        if (c.kh() == 1) rows = x;
        else {
            Tensor padded = g.pad(x, PadMode.ZERO, new long[] {0, half, 0, 0}, new long[] {0, half, 0, 0}, 0f);
            Tensor[] shifted = new Tensor[c.kh()];
            for (int i = 0; i < c.kh(); i++) shifted[i] = g.slice(padded, 1, i, i + t);
            rows = g.concat(2, shifted); // [N, T, kh·Cin, F]
        }
        Tensor flat = g.reshape(g.contiguous(rows), n * t, (long) c.kh() * cin, f);
        long out = (f + c.strideF() - 1) / c.strideF();
        long total = Math.max((out - 1) * c.strideF() + c.kw() - f, 0), before = total / 2, after = total - before;
        if (total > 0) flat = g.pad(flat, PadMode.ZERO, new long[] {0, 0, before}, new long[] {0, 0, after}, 0f);
        Tensor y = g.conv1d(
                flat,
                g.constant(name + ".weight", c.weight()),
                g.constant(name + ".bias", c.bias()),
                c.strideF(),
                0,
                1,
                1);
        return g.reshape(y, n, t, c.cout(), out);
    }
}
