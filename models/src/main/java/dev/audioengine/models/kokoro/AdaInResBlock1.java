package dev.audioengine.models.kokoro;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.Conv1d;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * iSTFTNet's AdaINResBlock1 on [1, C, T]: three residual steps, each AdaIN → Snake → conv (dilation 1, 3, 5) →
 * AdaIN → Snake → conv (dilation 1), "same" padding.
 */
final class AdaInResBlock1 {
    private static final int[] DILATIONS = {1, 3, 5};
    private final AdaIn[] adain1 = new AdaIn[3], adain2 = new AdaIn[3];
    private final Conv1d[] convs1 = new Conv1d[3], convs2 = new Conv1d[3];
    private final HostTensor[] alpha1 = new HostTensor[3], alpha2 = new HostTensor[3];

    private AdaInResBlock1() {}

    static AdaInResBlock1 load(WeightScope s, int channels, int kernel) {
        AdaInResBlock1 b = new AdaInResBlock1();
        for (int j = 0; j < 3; j++) {
            int d = DILATIONS[j];
            b.convs1[j] = Conv1d.load(s.child("convs1", j), 1, (kernel * d - d) / 2, d, 1);
            b.convs2[j] = Conv1d.load(s.child("convs2", j), 1, (kernel - 1) / 2, 1, 1);
            if (b.convs1[j].kernel() != kernel || b.convs1[j].outChannels() != channels) {
                throw new IllegalArgumentException(s.prefix() + ".convs1." + j + ": not " + channels + " channels of kernel " + kernel);
            }
            b.adain1[j] = AdaIn.load(s.child("adain1", j), channels);
            b.adain2[j] = AdaIn.load(s.child("adain2", j), channels);
            b.alpha1[j] = alpha(s, "alpha1." + j, channels);
            b.alpha2[j] = alpha(s, "alpha2." + j, channels);
        }
        return b;
    }

    /** The stored [1, C, 1] as the snake op's [C], owned by the store. */
    private static HostTensor alpha(WeightScope s, String name, int channels) {
        HostTensor a = s.tensor(name);
        if (a.elements() != channels) throw new IllegalArgumentException(s.full(name) + " is " + a.shape() + ", not " + channels + " channels");
        return s.store().derived(s.full(name) + " as [C]", () -> a.reshaped(Shape.of(channels)));
    }

    Tensor apply(GraphBuilder g, Tensor x, Tensor style) {
        for (int j = 0; j < 3; j++) {
            Tensor t = g.snake(adain1[j].instance(g, x, style), g.constant(alpha1[j]));
            t = convs1[j].apply(g, t);
            t = g.snake(adain2[j].instance(g, t, style), g.constant(alpha2[j]));
            x = g.add(convs2[j].apply(g, t), x);
        }
        return x;
    }
}
