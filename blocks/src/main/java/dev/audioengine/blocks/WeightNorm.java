package dev.audioengine.blocks;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.weights.WeightScope;

/**
 * torch's weight normalization folded at load: w = g · v / ‖v‖, the norm over every axis but the
 * first (weight_norm's default dim=0), so convolutions run on one plain weight. Reads the old
 * form ({@code weight_g}, {@code weight_v}) or the parametrization form
 * ({@code parametrizations.weight.original0} = g, {@code original1} = v), or a plain
 * {@code weight} when the checkpoint was saved with the norm already removed.
 */
public final class WeightNorm {
    private WeightNorm() {}

    /** The effective F32 weight of the module at {@code scope} (owned by its store). */
    public static HostTensor weight(WeightScope scope) {
        if (scope.has("weight")) return scope.tensor("weight");
        String g, v;
        if (scope.has("weight_g")) {
            g = "weight_g";
            v = "weight_v";
        } else {
            g = "parametrizations.weight.original0";
            v = "parametrizations.weight.original1";
        }
        HostTensor gain = scope.tensor(g), direction = scope.tensor(v);
        return scope.store().derived("weight norm " + scope.full(v), () -> fold(gain, direction));
    }

    /** g [C, 1, ...] or [C], v [C, ...] → g · v / ‖v‖ per index of the first axis, computed in double. */
    static HostTensor fold(HostTensor gain, HostTensor direction) {
        long c = direction.shape().dim(0);
        if (gain.elements() != c) {
            throw new IllegalArgumentException(
                    "weight norm gain " + gain.shape() + " does not fit direction " + direction.shape());
        }
        float[] gv = gain.toFloatArray(), v = direction.toFloatArray();
        int per = Math.toIntExact(direction.elements() / c);
        float[] w = new float[v.length];
        for (int o = 0; o < c; o++) {
            double sq = 0;
            for (int i = 0; i < per; i++) sq += (double) v[o * per + i] * v[o * per + i];
            double k = gv[o] / Math.sqrt(sq);
            for (int i = 0; i < per; i++) w[o * per + i] = (float) (v[o * per + i] * k);
        }
        return HostTensor.ofFloats(direction.shape(), w);
    }
}
