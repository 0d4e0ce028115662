package dev.audioengine.blocks;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightStore;

/** Position indices as the rotary op reads them (I32 [T]), kept by the weight store once per length. */
public final class Positions {
    private Positions() {}

    /** 0, 1, ..., length − 1. */
    public static HostTensor range(WeightStore constants, int length) {
        return constants.derived("positions 0.." + length, () -> {
            int[] p = new int[length];
            for (int i = 0; i < length; i++) p[i] = i;
            return HostTensor.ofInts(Shape.of(length), p);
        });
    }
}
