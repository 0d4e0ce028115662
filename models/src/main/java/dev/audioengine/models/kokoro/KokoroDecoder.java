package dev.audioengine.models.kokoro;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.weights.WeightScope;

import java.util.Set;

/**
 * iSTFTNet's Decoder up to the generator: F0 and N curves brought back to the frame rate (stride-2 convs), encode
 * (asr ++ F0 ++ N → 1024), four decode blocks each fed asr_res ++ F0 ++ N again (the last upsamples ×2 to 512).
 */
final class KokoroDecoder {
    private final Conv1d f0Conv, nConv, asrRes;
    private final AdainResBlk1d encode;
    private final AdainResBlk1d[] decode = new AdainResBlk1d[4];

    private KokoroDecoder(WeightScope d, Set<Capability> effective) {
        f0Conv = Conv1d.load(d.child("F0_conv"), 2, 1, 1, 1);
        nConv = Conv1d.load(d.child("N_conv"), 2, 1, 1, 1);
        asrRes = Conv1d.load(d.child("asr_res.0"), 1, 0, 1, 1);
        encode = AdainResBlk1d.load(d.child("encode"), 514, 1024, false, effective);
        for (int i = 0; i < 4; i++) decode[i] = AdainResBlk1d.load(d.child("decode", i), 1090, i < 3 ? 1024 : 512, i == 3, effective);
    }

    static KokoroDecoder load(WeightScope decoder, Set<Capability> effective) { return new KokoroDecoder(decoder, effective); }

    /** asr [1, 512, F], f0 and n [1, 1, 2F], style [1, 128] → [1, 512, 2F]; encode's output is added to {@code probes}. */
    Tensor apply(GraphBuilder g, Tensor asr, Tensor f0, Tensor n, Tensor style, java.util.List<Tensor> probes) {
        Tensor f = f0Conv.apply(g, f0), nn = nConv.apply(g, n);
        Tensor x = encode.apply(g, g.concat(1, asr, f, nn), style);
        probes.add(x);
        Tensor res = asrRes.apply(g, asr);
        // hexgrad stops feeding the residuals after an upsampling block: that is only the last, so all four get them
        for (AdainResBlk1d b : decode) x = b.apply(g, g.concat(1, x, res, f, nn), style);
        return x;
    }
}
