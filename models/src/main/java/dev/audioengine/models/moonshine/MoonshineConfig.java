package dev.audioengine.models.moonshine;

import dev.audioengine.blocks.Rotary;

/**
 * The geometry of a Moonshine model (transformers' MoonshineConfig, the fields the network needs). The ONNX exports
 * carry no config, so the two released sizes are constants here; a Hugging Face checkpoint brings its config.json.
 *
 * @param hidden              model width (tiny 288, base 416)
 * @param intermediate        encoder MLP width; the decoder's SwiGLU projects to twice this (value and gate)
 * @param encoderLayers       encoder layers
 * @param decoderLayers       decoder layers
 * @param encoderHeads        encoder attention heads (kv heads equal: Moonshine has no grouping in the encoder)
 * @param decoderHeads        decoder attention heads
 * @param decoderKvHeads      decoder key/value heads
 * @param partialRotaryFactor share of each head that is rotated (tiny 0.9, base 0.62)
 * @param ropeBase            rotary base (10000)
 * @param vocabulary          output rows (32768)
 */
public record MoonshineConfig(int hidden, int intermediate, int encoderLayers, int decoderLayers, int encoderHeads, int decoderHeads,
                              int decoderKvHeads, double partialRotaryFactor, float ropeBase, int vocabulary) {
    /** LayerNorm epsilon of every norm in the network. */
    public static final float NORM_EPS = 1e-5f;
    public static final int BOS = 1, EOS = 2;
    /** Input rate, and the stem's total stride: one encoder frame per 384 samples (24 ms). */
    public static final int SAMPLE_RATE = 16000;

    public static final MoonshineConfig TINY = new MoonshineConfig(288, 1152, 6, 6, 8, 8, 8, 0.9, 10000f, 32768);
    public static final MoonshineConfig BASE = new MoonshineConfig(416, 1664, 8, 8, 8, 8, 8, 0.62, 10000f, 32768);

    public MoonshineConfig {
        if (hidden < 1 || encoderHeads < 1 || decoderHeads < 1 || decoderKvHeads < 1 || hidden % encoderHeads != 0
                || hidden % decoderHeads != 0 || decoderHeads % decoderKvHeads != 0) {
            throw new IllegalArgumentException("Moonshine geometry does not divide: hidden " + hidden + ", heads " + encoderHeads + "/"
                    + decoderHeads + ", decoder kv heads " + decoderKvHeads);
        }
        if (encoderLayers < 1 || decoderLayers < 1 || intermediate < 1 || vocabulary < 3) {
            throw new IllegalArgumentException("Moonshine needs layers, an MLP and a vocabulary; got " + this);
        }
    }

    public int encoderHeadDim() { return hidden / encoderHeads; }

    public int decoderHeadDim() { return hidden / decoderHeads; }

    public Rotary encoderRotary() { return Rotary.partial(encoderHeadDim(), partialRotaryFactor, ropeBase, true); }

    public Rotary decoderRotary() { return Rotary.partial(decoderHeadDim(), partialRotaryFactor, ropeBase, true); }

    /** Encoder frames for {@code samples} of audio: conv 127/64, then 7/3, then 3/2, no padding; 0 when too short. */
    public static long frames(long samples) {
        long t = samples < 127 ? 0 : (samples - 127) / 64 + 1;
        t = t < 7 ? 0 : (t - 7) / 3 + 1;
        return t < 3 ? 0 : (t - 3) / 2 + 1;
    }

    /** The most samples that give at most {@code frames} encoder frames. */
    public static int maxSamples(int frames) {
        long lo = 0, hi = 64L * 6 * (frames + 2) + 1024; // frames(hi) > frames
        while (lo < hi) {
            long mid = (lo + hi + 1) / 2;
            if (frames(mid) <= frames) lo = mid; else hi = mid - 1;
        }
        return Math.toIntExact(lo);
    }

    /** The fewest samples that give one encoder frame (the shortest window the model can hear). */
    public static final int MIN_SAMPLES = 127 + 64 * (7 - 1 + 3 * (3 - 1));
}
