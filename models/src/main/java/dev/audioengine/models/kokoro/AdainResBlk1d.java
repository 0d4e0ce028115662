package dev.audioengine.models.kokoro;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.ConvTranspose1d;
import dev.audioengine.blocks.weights.WeightScope;

import java.util.Set;

/**
 * StyleTTS2's AdainResBlk1d on [1, C, T]: AdaIN → LeakyReLU 0.2 → (depthwise ×2 ConvTranspose when upsampling) →
 * conv k3 → AdaIN → LeakyReLU → conv k3, plus the shortcut (nearest ×2 when upsampling, 1×1 conv when the width
 * changes), the sum divided by √2.
 */
final class AdainResBlk1d {
    private static final float INV_SQRT2 = (float) (1 / Math.sqrt(2));
    private final AdaIn norm1, norm2;
    private final Conv1d conv1, conv2, conv1x1;
    private final ConvTranspose1d pool;

    private AdainResBlk1d(AdaIn norm1, Conv1d conv1, AdaIn norm2, Conv1d conv2, Conv1d conv1x1, ConvTranspose1d pool) {
        this.norm1 = norm1;
        this.conv1 = conv1;
        this.norm2 = norm2;
        this.conv2 = conv2;
        this.conv1x1 = conv1x1;
        this.pool = pool;
    }

    static AdainResBlk1d load(WeightScope s, int in, int out, boolean upsample, Set<Capability> effective) {
        Conv1d conv1 = Conv1d.load(s.child("conv1"), 1, 1, 1, 1);
        Conv1d conv2 = Conv1d.load(s.child("conv2"), 1, 1, 1, 1);
        if (conv1.outChannels() != out || conv2.outChannels() != out) throw new IllegalArgumentException(s.prefix() + ": convs do not give " + out);
        Conv1d shortcut = in == out ? null : new Conv1d(s.child("conv1x1").tensor("weight"), null, 1, 0, 1, 1);
        ConvTranspose1d pool = upsample ? ConvTranspose1d.load(s.child("pool"), 2, 1, 1, 1, in, effective) : null;
        return new AdainResBlk1d(AdaIn.load(s.child("norm1"), in), conv1, AdaIn.load(s.child("norm2"), out), conv2, shortcut, pool);
    }

    Tensor apply(GraphBuilder g, Tensor x, Tensor style) {
        Tensor r = KokoroOps.leakyRelu(g, norm1.instance(g, x, style), 0.2f);
        if (pool != null) r = pool.apply(g, r);
        r = conv1.apply(g, r);
        r = conv2.apply(g, KokoroOps.leakyRelu(g, norm2.instance(g, r, style), 0.2f));
        Tensor sc = pool != null ? KokoroOps.upsampleNearest2(g, x) : x;
        if (conv1x1 != null) sc = conv1x1.apply(g, sc);
        return g.scale(g.add(r, sc), INV_SQRT2);
    }
}
