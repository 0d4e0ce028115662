package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightStore;

/**
 * Whisper's log-mel spectrogram as graph ops: |STFT|² (Hann window, centred, reflect padding, the
 * last frame dropped as Whisper drops it), a Slaney-normalised mel filterbank (librosa's default,
 * htk=False), log10 of values floored at 1e-10, each item's values floored at its maximum − 8,
 * then (x + 4) / 4. Audio [B, samples] → [B, mels, frames] with frames = samples / hop.
 * The window and filterbank are built once per configuration and kept by the weight store.
 */
public final class LogMel {
    private final int sampleRate, nFft, hop, mels;
    private final WeightStore constants;
    private final HostTensor filters; // a model file's own filterbank [mels, nFft/2 + 1], or null for librosa's

    public LogMel(int sampleRate, int nFft, int hop, int mels, WeightStore constants) {
        this(sampleRate, nFft, hop, mels, constants, null);
    }

    /**
     * With a filterbank [mels, nFft/2 + 1] given (whisper.cpp's files carry the one their converter wrote, and
     * whisper.cpp computes its mel with it), instead of the Slaney filterbank built here; null builds that.
     */
    public LogMel(int sampleRate, int nFft, int hop, int mels, WeightStore constants, HostTensor filters) {
        if (filters != null
                && (filters.shape().rank() != 2
                        || filters.shape().dim(0) != mels
                        || filters.shape().dim(1) != nFft / 2 + 1))
            throw new IllegalArgumentException("a mel filterbank of " + mels + " x " + (nFft / 2 + 1) + " wanted, got "
                    + (filters == null ? null : filters.shape()));
        this.filters = filters;
        if (nFft < 2 || hop < 1 || mels < 1 || sampleRate < 1)
            throw new IllegalArgumentException("log-mel n_fft " + nFft + ", hop " + hop + ", mels " + mels);
        this.sampleRate = sampleRate;
        this.nFft = nFft;
        this.hop = hop;
        this.mels = mels;
        this.constants = constants;
    }

    /** Whisper's front end: 16 kHz, n_fft 400, hop 160, 80 mels (128 for large-v3). */
    public static LogMel whisper(int mels, WeightStore constants) {
        return new LogMel(16000, 400, 160, mels, constants);
    }

    /** Whisper's front end over a model file's own filterbank [mels, 201] (null: the Slaney one built here). */
    public static LogMel whisper(int mels, WeightStore constants, HostTensor filters) {
        return new LogMel(16000, 400, 160, mels, constants, filters);
    }

    public Tensor apply(GraphBuilder g, Tensor audio) {
        if (audio.rank() != 2)
            throw new IllegalArgumentException("log-mel wants audio [B, samples], got " + audio.shape());
        long b = audio.dim(0);
        Tensor spec = g.stft(audio, g.constant(window()), nFft, hop, true); // [B, F, frames+1, 2]
        long frames = spec.dim(2) - 1;
        Tensor kept = g.slice(spec, 2, 0, frames);
        Tensor re = g.slice(kept, 3, 0, 1), im = g.slice(kept, 3, 1, 2);
        Tensor power = g.reshape(g.add(g.mul(re, re), g.mul(im, im)), b, spec.dim(1), frames); // [B, F, frames]
        Tensor mel = g.matmul(g.constant(filterbank()), g.transpose(power, 1, 2)); // [B, mels, frames]
        Tensor floored = g.scale(g.relu(g.scale(mel, 1f, -1e-10f)), 1f, 1e-10f); // max(mel, 1e-10)
        Tensor log10 = g.scale(g.log(floored), (float) (1 / Math.log(10)));
        Tensor top = g.scale(g.max(g.reshape(log10, b, mels * frames), 1, true), 1f, -8f); // [B, 1]
        Tensor lifted = g.reshape(top, b, 1, 1);
        Tensor clipped = g.add(g.relu(g.sub(log10, lifted)), lifted); // max(log10, top − 8)
        return g.scale(clipped, 0.25f, 1f); // (x + 4) / 4
    }

    /** torch.hann_window(nFft) (periodic). */
    HostTensor window() {
        return constants.derived("hann " + nFft, () -> {
            float[] w = new float[nFft];
            for (int i = 0; i < nFft; i++) w[i] = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / nFft));
            return HostTensor.ofFloats(Shape.of(nFft), w);
        });
    }

    /** librosa.filters.mel(sr, n_fft, n_mels) with htk=False and norm="slaney": [mels, nFft/2 + 1]. */
    HostTensor filterbank() {
        if (filters != null) return filters;
        return constants.derived(
                "mel " + sampleRate + "/" + nFft + "/" + mels,
                () -> HostTensor.ofFloats(Shape.of(mels, nFft / 2 + 1), slaney(sampleRate, nFft, mels)));
    }

    /** librosa.filters.mel(sr, n_fft, n_mels), htk=False, norm="slaney", row-major [mels, nFft/2 + 1]: for writers of model files. */
    public static float[] slaney(int sampleRate, int nFft, int mels) {
        {
            int bins = nFft / 2 + 1;
            double[] edges = new double[mels + 2];
            double lo = hzToMel(0), hi = hzToMel(sampleRate / 2.0);
            for (int i = 0; i < edges.length; i++) edges[i] = melToHz(lo + (hi - lo) * i / (mels + 1));
            float[] w = new float[mels * bins];
            for (int m = 0; m < mels; m++) {
                double norm = 2 / (edges[m + 2] - edges[m]);
                for (int k = 0; k < bins; k++) {
                    double f = (double) k * sampleRate / nFft;
                    double rise = (f - edges[m]) / (edges[m + 1] - edges[m]),
                            fall = (edges[m + 2] - f) / (edges[m + 2] - edges[m + 1]);
                    w[m * bins + k] = (float) (Math.max(0, Math.min(rise, fall)) * norm);
                }
            }
            return w;
        }
    }

    /** Slaney's mel scale: linear (3 mels per 200 Hz) below 1 kHz, logarithmic above. */
    private static double hzToMel(double hz) {
        return hz < 1000 ? hz * 3 / 200 : 15 + Math.log(hz / 1000) / (Math.log(6.4) / 27);
    }

    private static double melToHz(double mel) {
        return mel < 15 ? mel * 200 / 3 : 1000 * Math.exp((mel - 15) * Math.log(6.4) / 27);
    }
}
