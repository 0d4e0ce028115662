package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * The position-wise feed-forward network of a transformer layer, in two forms:
 * <ul>
 *   <li>plain: down(act(up(x))) (Moonshine's encoder: fc1, exact GELU, fc2);</li>
 *   <li>gated (GLU family): down(act(gate) · value), where gate and value are either the two halves
 *       of one projection's output (Moonshine's decoder: fc1 gives [value | gate], SiLU: SwiGLU) or two
 *       separate projections (Llama: gate_proj, up_proj).</li>
 * </ul>
 */
public final class FeedForward {
    /** The nonlinearity between the projections. */
    public enum Activation {
        GELU(Op.UnaryKind.GELU_ERF),
        GELU_TANH(Op.UnaryKind.GELU_TANH),
        SILU(Op.UnaryKind.SILU),
        RELU(Op.UnaryKind.RELU);

        private final Op.UnaryKind kind;

        Activation(Op.UnaryKind kind) {
            this.kind = kind;
        }
    }

    private final Linear up, gate, down;
    private final Activation activation;
    private final boolean fusedHalves;

    private FeedForward(Linear up, Linear gate, Linear down, Activation activation, boolean fusedHalves) {
        this.up = up;
        this.gate = gate;
        this.down = down;
        this.activation = activation;
        this.fusedHalves = fusedHalves;
    }

    /** down(act(up(x))). */
    public static FeedForward plain(Linear up, Linear down, Activation activation) {
        if (down.inFeatures() != up.outFeatures())
            throw new IllegalArgumentException("up gives " + up.outFeatures() + ", down takes " + down.inFeatures());
        return new FeedForward(up, null, down, activation, false);
    }

    /** {@code both} gives 2·I features, value then gate: down(act(gate) · value), as Moonshine's decoder MLP. */
    public static FeedForward gatedHalves(Linear both, Linear down, Activation activation) {
        if (both.outFeatures() != 2 * down.inFeatures()) {
            throw new IllegalArgumentException("the fused projection gives " + both.outFeatures() + ", down takes "
                    + down.inFeatures() + " (want twice)");
        }
        return new FeedForward(both, null, down, activation, true);
    }

    /** down(act(gate(x)) · up(x)), as Llama's MLP. */
    public static FeedForward gated(Linear gate, Linear up, Linear down, Activation activation) {
        if (gate.outFeatures() != up.outFeatures() || down.inFeatures() != up.outFeatures()) {
            throw new IllegalArgumentException(
                    "gate " + gate.outFeatures() + ", up " + up.outFeatures() + ", down takes " + down.inFeatures());
        }
        return new FeedForward(up, gate, down, activation, false);
    }

    /** x [..., D] → [..., D]. */
    public Tensor apply(GraphBuilder g, Tensor x) {
        Tensor h;
        if (fusedHalves) {
            Tensor both = up.apply(g, x);
            long half = both.dim(-1) / 2;
            h = g.mul(g.unary(activation.kind, g.slice(both, -1, half, 2 * half)), g.slice(both, -1, 0, half));
        } else if (gate != null) {
            h = g.mul(g.unary(activation.kind, gate.apply(g, x)), up.apply(g, x));
        } else {
            h = g.unary(activation.kind, up.apply(g, x));
        }
        return down.apply(g, h);
    }
}
