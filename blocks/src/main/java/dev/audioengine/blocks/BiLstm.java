package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;

/**
 * PyTorch's one-layer LSTM with bidirectional=True and batch_first=True, from zero state: two LSTM
 * ops, the second over the time-reversed input, its outputs reversed back and concatenated after
 * the forward ones on the feature axis → [B, T, 2H]. Time is reversed by a row gather with
 * reversed indices (a copy of T·B rows, no T² work).
 */
public final class BiLstm {
    private final Direction forward, backward;
    private final int hidden;
    private final WeightStore constants;

    /** One direction's PyTorch parameters: w_ih [4H, I], w_hh [4H, H], b_ih and b_hh [4H], gates (i, f, g, o). */
    public record Direction(HostTensor wIh, HostTensor wHh, HostTensor bIh, HostTensor bHh) {}

    public BiLstm(Direction forward, Direction backward, WeightStore constants) {
        this.hidden = Math.toIntExact(forward.wHh().shape().dim(1));
        if (backward.wHh().shape().dim(1) != hidden
                || !forward.wIh().shape().equals(backward.wIh().shape())) {
            throw new IllegalArgumentException("the two directions differ: "
                    + forward.wIh().shape() + " / " + backward.wIh().shape());
        }
        this.forward = forward;
        this.backward = backward;
        this.constants = constants;
    }

    /** {@code weight_ih_l0}, {@code weight_hh_l0}, {@code bias_ih_l0}, {@code bias_hh_l0} and their {@code _reverse} forms. */
    public static BiLstm load(WeightScope scope) {
        return new BiLstm(direction(scope, ""), direction(scope, "_reverse"), scope.store());
    }

    private static Direction direction(WeightScope s, String suffix) {
        return new Direction(
                s.tensor("weight_ih_l0" + suffix),
                s.tensor("weight_hh_l0" + suffix),
                s.tensor("bias_ih_l0" + suffix),
                s.tensor("bias_hh_l0" + suffix));
    }

    public int hidden() {
        return hidden;
    }

    /** x [B, T, I] → [B, T, 2H]: forward hidden states, then backward ones, per step. */
    public Tensor apply(GraphBuilder g, Tensor x) {
        long b = x.dim(0), t = x.dim(1);
        Tensor ahead = hiddenStates(g, run(g, forward, x), b, t);
        Tensor reversed = reverseTime(g, x);
        Tensor behind = reverseTime(g, hiddenStates(g, run(g, backward, reversed), b, t));
        return g.concat(2, ahead, behind);
    }

    private Tensor run(GraphBuilder g, Direction d, Tensor x) {
        Tensor zero = g.constant(constants.derived(
                "lstm zero state " + x.dim(0) + "x" + hidden,
                () -> HostTensor.allocate(DType.F32, Shape.of(x.dim(0), hidden))));
        return g.lstm(
                x, g.constant(d.wIh()), g.constant(d.wHh()), g.constant(d.bIh()), g.constant(d.bHh()), zero, zero);
    }

    /** The op's [2, B, T, H] output → the hidden sequence [B, T, H]. */
    private Tensor hiddenStates(GraphBuilder g, Tensor out, long b, long t) {
        return g.reshape(g.slice(out, 0, 0, 1), b, t, hidden);
    }

    /** [B, T, F] with its time axis reversed. */
    private Tensor reverseTime(GraphBuilder g, Tensor x) {
        long b = x.dim(0), t = x.dim(1), f = x.dim(2);
        HostTensor ids = constants.derived("reversed rows " + b + "x" + t, () -> {
            int[] v = new int[Math.toIntExact(b * t)];
            for (int i = 0; i < b; i++) for (int j = 0; j < t; j++) v[(int) (i * t + j)] = (int) (i * t + (t - 1 - j));
            return HostTensor.ofInts(Shape.of(b * t), v);
        });
        return g.reshape(g.getRows(g.reshape(x, b * t, f), g.constant(ids)), b, t, f);
    }
}
