package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;

/**
 * A pre-norm transformer decoder layer, as Moonshine's decoder stacks them: x + causal
 * self-attn(norm₁(x)), + cross-attn(norm₂(·), encoder memory), + ffn(norm₃(·)).
 * <p>
 * This form attends over the whole sequence given (no cache): it decodes a prefix in one graph
 * and is the reference that a cached decoder step must agree with.
 */
public final class DecoderLayer {
    private final Norm selfNorm;
    private final MultiHeadAttention selfAttention;
    private final Norm crossNorm;
    private final MultiHeadAttention crossAttention;
    private final Norm ffnNorm;
    private final FeedForward ffn;

    public DecoderLayer(Norm selfNorm, MultiHeadAttention selfAttention, Norm crossNorm, MultiHeadAttention crossAttention,
                        Norm ffnNorm, FeedForward ffn) {
        this.selfNorm = selfNorm;
        this.selfAttention = selfAttention;
        this.crossNorm = crossNorm;
        this.crossAttention = crossAttention;
        this.ffnNorm = ffnNorm;
        this.ffn = ffn;
    }

    public MultiHeadAttention selfAttention() { return selfAttention; }

    public MultiHeadAttention crossAttention() { return crossAttention; }

    /** x [B, T, D], memory [B, Tm, Dm] → [B, T, D]; {@code positions} I32 [T], null for 0..T−1. */
    public Tensor apply(GraphBuilder g, Tensor x, Tensor memory, Tensor positions) {
        Tensor h = g.add(x, selfAttention.self(g, selfNorm.apply(g, x), positions, true));
        h = g.add(h, crossAttention.cross(g, crossNorm.apply(g, h), memory));
        return g.add(h, ffn.apply(g, ffnNorm.apply(g, h)));
    }
}
