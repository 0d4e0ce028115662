package dev.audioengine.models.kokoro;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.ConvTranspose1d;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;

import java.util.Set;

/**
 * iSTFTNet's Generator from the decoder's [1, 512, 2F] and the harmonic source's spectrum [1, 22, 120F + 1]:
 * two upsamplings (×10, ×6) each joined by the source through noise_convs/noise_res and followed by the mean of three
 * AdaINResBlock1, conv_post → exp magnitude and sin phase → the export's inverse STFT → [600F]. The export computes
 * it as a ConvTranspose of [mag·cos φ, mag·sin φ] with the file's inverse_basis (hop 5), the first 20 samples divided
 * by one frame's Hann², ×4, 10 samples dropped at each end. With DEVICE_ISTFT the Istft op (torch.istft) computes it
 * instead, ×1.5: the export does not divide its body by the Hann² overlap (1.5 at hop n/4), torch.istft does; the
 * two differ only in the first and last 10 samples (0.4 ms), where torch.istft divides by the partial overlap.
 */
final class KokoroGenerator {
    static final int N_FFT = 20, HOP = 5, BINS = N_FFT / 2 + 1;
    private final Conv1d[] noiseConvs = new Conv1d[2];
    private final AdaInResBlock1[] noiseRes = new AdaInResBlock1[2];
    private final ConvTranspose1d[] ups = new ConvTranspose1d[2];
    private final AdaInResBlock1[] resblocks = new AdaInResBlock1[6];
    private final Conv1d convPost;
    private final ConvTranspose1d overlapAdd;
    private final boolean deviceIstft;
    private final WeightStore constants;

    private KokoroGenerator(WeightScope gen, HostTensor inverseBasis, Set<Capability> effective) {
        noiseConvs[0] = Conv1d.load(gen.child("noise_convs.0"), 6, 3, 1, 1);
        noiseConvs[1] = Conv1d.load(gen.child("noise_convs.1"), 1, 0, 1, 1);
        noiseRes[0] = AdaInResBlock1.load(gen.child("noise_res.0"), 256, 7);
        noiseRes[1] = AdaInResBlock1.load(gen.child("noise_res.1"), 128, 11);
        ups[0] = ConvTranspose1d.load(gen.child("ups.0"), 10, 5, 0, 1, 1, effective);
        ups[1] = ConvTranspose1d.load(gen.child("ups.1"), 6, 3, 0, 1, 1, effective);
        int[] kernels = {3, 7, 11};
        for (int i = 0; i < 6; i++) resblocks[i] = AdaInResBlock1.load(gen.child("resblocks", i), i < 3 ? 256 : 128, kernels[i % 3]);
        convPost = Conv1d.load(gen.child("conv_post"), 1, 3, 1, 1);
        if (!inverseBasis.shape().equals(Shape.of(2 * BINS, 1, N_FFT))) throw new IllegalArgumentException("inverse_basis is " + inverseBasis.shape());
        this.constants = gen.store();
        this.overlapAdd = new ConvTranspose1d(inverseBasis, null, HOP, 0, 0, 1, 1, constants, "istft inverse_basis",
                effective.contains(Capability.CONV_TRANSPOSE1D_COL2IM));
        this.deviceIstft = effective.contains(Capability.DEVICE_ISTFT);
    }

    static KokoroGenerator load(WeightScope generator, HostTensor inverseBasis, Set<Capability> effective) {
        return new KokoroGenerator(generator, inverseBasis, effective);
    }

    /** x [1, 512, 2F], har [1, 22, 120F + 1], style [1, 128] → waveform [600F]; conv_post's output is added to {@code probes}. */
    Tensor apply(GraphBuilder g, Tensor x, Tensor har, Tensor style, java.util.List<Tensor> probes) {
        for (int i = 0; i < 2; i++) {
            x = KokoroOps.leakyRelu(g, x, 0.1f);
            Tensor source = noiseRes[i].apply(g, noiseConvs[i].apply(g, har), style);
            x = ups[i].apply(g, x);
            if (i == 1) x = g.pad1d(x, PadMode.REFLECT, 1, 0);
            x = g.add(x, source);
            Tensor sum = null;
            for (int j = 0; j < 3; j++) {
                Tensor r = resblocks[3 * i + j].apply(g, x, style);
                sum = sum == null ? r : g.add(sum, r);
            }
            x = g.scale(sum, 1f / 3);
        }
        Tensor post = convPost.apply(g, KokoroOps.leakyRelu(g, x, 0.01f));
        probes.add(post);
        Tensor mag = g.exp(g.slice(post, 1, 0, BINS));
        Tensor phase = g.unary(dev.audioengine.api.graph.Op.UnaryKind.SIN, g.slice(post, 1, BINS, 2 * BINS));
        Tensor re = g.mul(mag, g.unary(dev.audioengine.api.graph.Op.UnaryKind.COS, phase));
        Tensor im = g.mul(mag, g.unary(dev.audioengine.api.graph.Op.UnaryKind.SIN, phase));
        if (deviceIstft) {
            long frames = re.dim(2);
            Tensor spec = g.concat(3, g.reshape(re, 1, BINS, frames, 1), g.reshape(im, 1, BINS, frames, 1));
            Tensor y = g.istft(spec, g.constant(hann()), N_FFT, HOP, true, HOP * (frames - 1));
            return g.reshape(g.scale(y, 1.5f), HOP * (frames - 1));
        }
        Tensor y = overlapAdd.apply(g, g.concat(1, re, im));
        long full = y.dim(2);
        y = g.mul(y, g.constant(tailScale(full)));
        return g.reshape(g.slice(y, 2, N_FFT / 2, full - N_FFT / 2), full - N_FFT);
    }

    /** The periodic Hann window of n_fft 20 (torch.hann_window's default, as the export's basis has). */
    private HostTensor hann() {
        return constants.derived("kokoro istft hann", () -> {
            float[] w = new float[N_FFT];
            for (int i = 0; i < N_FFT; i++) w[i] = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / N_FFT));
            return HostTensor.ofFloats(Shape.of(N_FFT), w);
        });
    }

    /** 4 / window_sum[i] on the first 20 samples where window_sum (one periodic Hann frame, squared) is a normal float, 4 elsewhere. */
    private HostTensor tailScale(long length) {
        return constants.derived("kokoro istft scale " + length, () -> {
            float[] s = new float[Math.toIntExact(length)];
            java.util.Arrays.fill(s, 4f);
            for (int i = 0; i < Math.min(N_FFT, length); i++) {
                float w = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / N_FFT));
                float ws = w * w;
                if (ws > Float.MIN_NORMAL) s[i] = 4f / ws;
            }
            return HostTensor.ofFloats(Shape.of(1, 1, length), s);
        });
    }
}
