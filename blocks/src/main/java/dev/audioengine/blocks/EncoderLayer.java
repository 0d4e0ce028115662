package dev.audioengine.blocks;

import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;

/**
 * A pre-norm transformer encoder layer, as Moonshine's encoder (and Llama) stack them:
 * x + attn(norm₁(x)), then + ffn(norm₂(·)). Attention is the non-causal self form.
 */
public final class EncoderLayer {
    private final Norm attentionNorm;
    private final MultiHeadAttention attention;
    private final Norm ffnNorm;
    private final FeedForward ffn;

    public EncoderLayer(Norm attentionNorm, MultiHeadAttention attention, Norm ffnNorm, FeedForward ffn) {
        this.attentionNorm = attentionNorm;
        this.attention = attention;
        this.ffnNorm = ffnNorm;
        this.ffn = ffn;
    }

    /** x [B, T, D] → [B, T, D]; {@code positions} I32 [T] for the rotary, null for 0..T−1. */
    public Tensor apply(GraphBuilder g, Tensor x, Tensor positions) {
        Tensor h = g.add(x, attention.self(g, attentionNorm.apply(g, x), positions, false));
        return g.add(h, ffn.apply(g, ffnNorm.apply(g, h)));
    }

    /**
     * As {@link #apply(GraphBuilder, Tensor, Tensor)} over a batch of sequences padded to one length: each attends
     * only to its own keys, {@code mask} the additive key mask [B, 1, T, T] or [T, T] of {@link GraphBuilder#keyMask}.
     * The padded positions are computed too (their values are of no use; their queries see the valid keys).
     */
    public Tensor apply(GraphBuilder g, Tensor x, Tensor positions, Tensor mask) {
        Tensor h = g.add(x, attention.self(g, attentionNorm.apply(g, x), positions, mask));
        return g.add(h, ffn.apply(g, ffnNorm.apply(g, h)));
    }
}
