package dev.audioengine.conformance;

import static dev.audioengine.conformance.CaseDraft.dims;

import dev.audioengine.api.graph.Tensor;
import java.util.List;

/** stft (power-of-two and other sizes, centered or not), istft and magnitude. */
final class SpectralCases {
    private SpectralCases() {}

    /** Windows drawn in [0.5, 1): never zero, so istft's overlap-add normalization is well defined (NOLA). */
    private static final Values WINDOW = Values.uniform(0.5, 1);

    static void addTo(List<ConformanceCase> out) {
        stft(out);
        istft(out);
        magnitude(out);
    }

    private static void stft(List<ConformanceCase> out) {
        // {batch, samples, nFft, hop, center}
        long[][] specs = {
            {1, 64, 16, 4, 1},
            {1, 1600, 400, 160, 1},
            {2, 2048, 512, 128, 0},
            {1, 4096, 1024, 256, 1},
            {1, 5, 2, 1, 0},
            {1, 100, 15, 5, 1},
            {3, 257, 64, 16, 1}
        };
        for (long[] s : specs) {
            CaseDraft d = new CaseDraft();
            Tensor x = d.f32("x", s[0], s[1]), w = d.f32("window", WINDOW, s[2]);
            out.add(d.done(d.g.stft(x, w, (int) s[2], (int) s[3], s[4] == 1), "f32", label(s), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor x = d.g.slice(d.f32("x", 2, 300), 1, 0, 300, 2), w = d.f32("window", WINDOW, 32);
        out.add(d.done(d.g.stft(x, w, 32, 8, true), "f32", "x=[2,300][:,::2] n_fft 32 hop 8 center", Bound.F32));
    }

    private static String label(long[] s) {
        return "x[" + s[0] + "," + s[1] + "] n_fft " + s[2] + " hop " + s[3] + (s[4] == 1 ? " center" : "");
    }

    private static void istft(List<ConformanceCase> out) {
        // {batch, nFft, hop, frames, center, length (0 = full)}
        long[][] specs = {
            {1, 16, 4, 9, 1, 0},
            {1, 512, 128, 17, 1, 0},
            {1, 400, 100, 11, 1, 900},
            {1, 64, 16, 5, 0, 0},
            {2, 32, 8, 7, 1, 45},
            {1, 15, 5, 8, 1, 0}
        };
        for (long[] s : specs) {
            int nFft = (int) s[1], hop = (int) s[2];
            boolean center = s[4] == 1;
            long full = nFft + hop * (s[3] - 1) - (center ? 2L * (nFft / 2) : 0);
            long length = s[5] == 0 ? full : s[5];
            CaseDraft d = new CaseDraft();
            Tensor spec = d.f32("spec", s[0], nFft / 2 + 1, s[3], 2), w = d.f32("window", WINDOW, nFft);
            String lbl = "spec[" + s[0] + "," + (nFft / 2 + 1) + "," + s[3] + ",2] n_fft " + nFft + " hop " + hop
                    + (center ? " center" : "") + " length " + length;
            out.add(d.done(d.g.istft(spec, w, nFft, hop, center, length), "f32", lbl, Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        Tensor spec = d.permuted("spec", new int[] {0, 2, 1, 3}, 1, 17, 6, 2), w = d.f32("window", WINDOW, 32);
        out.add(d.done(
                d.g.istft(spec, w, 32, 8, true, 40),
                "f32",
                "spec[1,17,6,2] stored [B,frames,bins,2] n_fft 32 hop 8 center length 40",
                Bound.F32));
    }

    private static void magnitude(List<ConformanceCase> out) {
        long[][] shapes = {{1, 2}, {257, 2}, {2, 257, 33, 2}};
        for (long[] s : shapes) {
            CaseDraft d = new CaseDraft();
            out.add(d.done(d.g.magnitude(d.f32("z", s)), "f32", "z" + dims(s), Bound.F32));
        }
        CaseDraft d = new CaseDraft();
        out.add(d.done(d.g.magnitude(d.transposed("z", 65, 2)), "f32", "z[65,2] transposed view", Bound.F32));
    }
}
