package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;

/**
 * Rotary position embedding of the first {@code dims} values of each head (all of them, or a
 * part: partial rotary), the rest passing through. Pairs are interleaved, (2i, 2i+1), as in
 * GPT-J and Moonshine, or split halves, (i, i + dims/2), as in GPT-NeoX and Llama; pair i turns by
 * position · base^(−2i/dims).
 */
public final class Rotary {
    private final int dims;
    private final float base;
    private final boolean interleaved;

    public Rotary(int dims, float base, boolean interleaved) {
        if (dims < 2 || dims % 2 != 0)
            throw new IllegalArgumentException("rotary dimensions must be even and at least 2, got " + dims);
        this.dims = dims;
        this.base = base;
        this.interleaved = interleaved;
    }

    /**
     * transformers' rule for a partial rotary: int(headDim · factor) dimensions (Moonshine: head 36,
     * factor 0.9, 32 rotated), made even by dropping one if needed.
     */
    public static Rotary partial(int headDim, double factor, float base, boolean interleaved) {
        if (!(factor > 0 && factor <= 1))
            throw new IllegalArgumentException("partial rotary factor " + factor + " outside (0, 1]");
        int d = (int) (headDim * factor);
        return new Rotary(d - d % 2, base, interleaved);
    }

    public int dims() {
        return dims;
    }

    public float base() {
        return base;
    }

    public boolean interleaved() {
        return interleaved;
    }

    /** x [B, H, T, D] with D >= dims, positions I32 [T]. */
    public Tensor apply(GraphBuilder g, Tensor x, Tensor positions) {
        if (x.rank() != 4 || x.dim(3) < dims) {
            throw new IllegalArgumentException(
                    "rotary of " + dims + " dimensions wants x [B, H, T, D >= " + dims + "], got " + x.shape());
        }
        return g.rope(x, positions, dims, base, interleaved ? Op.RopeMode.NORMAL : Op.RopeMode.NEOX);
    }
}
