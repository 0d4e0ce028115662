package dev.audioengine.models.kokoro;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.blocks.LayerNorm;
import dev.audioengine.blocks.Linear;
import dev.audioengine.blocks.MultiHeadAttention;
import dev.audioengine.blocks.Positions;
import dev.audioengine.blocks.weights.WeightScope;

import java.util.Set;

/**
 * PL-BERT's ALBERT (transformers' AlbertModel, last hidden state): word + position + token type 0 embeddings,
 * LayerNorm, a 128 → 768 mapping, then the one shared layer applied 12 times, post-norm: attention, LayerNorm of
 * (x + attended); FFN with GELU's tanh form (what ORT's FastGelu computes), LayerNorm of (x + ffn). eps 1e-12.
 */
final class Albert {
    static final int LAYERS = 12, HEADS = 12, HIDDEN = 768;
    private static final float EPS = 1e-12f;
    private final HostTensor words, positions, tokenTypes;
    private final LayerNorm embeddingNorm, attentionNorm, fullNorm;
    private final Linear mappingIn, ffn, ffnOutput;
    private final MultiHeadAttention attention;

    private Albert(WeightScope bert, Set<Capability> effective) {
        WeightScope e = bert.child("embeddings");
        words = e.tensor("word_embeddings.weight");
        positions = e.tensor("position_embeddings.weight");
        tokenTypes = e.tensor("token_type_embeddings.weight");
        embeddingNorm = LayerNorm.load(e.child("LayerNorm"), EPS);
        mappingIn = Linear.load(bert.child("encoder.embedding_hidden_mapping_in"));
        WeightScope l = bert.child("encoder.albert_layer_groups.0.albert_layers.0");
        attention = MultiHeadAttention.load(l.child("attention"), "query", "key", "value", "dense", HEADS, HEADS, null, effective);
        attentionNorm = LayerNorm.load(l.child("attention.LayerNorm"), EPS);
        ffn = Linear.load(l.child("ffn"));
        ffnOutput = Linear.load(l.child("ffn_output"));
        fullNorm = LayerNorm.load(l.child("full_layer_layer_norm"), EPS);
        if (mappingIn.outFeatures() != HIDDEN || ffnOutput.outFeatures() != HIDDEN || words.shape().dim(1) != mappingIn.inFeatures()) {
            throw new IllegalArgumentException("ALBERT widths do not fit: mapping " + mappingIn.inFeatures() + " → " + mappingIn.outFeatures());
        }
    }

    static Albert load(WeightScope bert, Set<Capability> effective) { return new Albert(bert, effective); }

    /** ids I32 [1, N] → [1, N, 768]. */
    Tensor apply(GraphBuilder g, Tensor ids, WeightScope constants) {
        int n = Math.toIntExact(ids.dim(1));
        Tensor x = g.getRows(g.constant(words), ids);
        x = g.add(x, g.getRows(g.constant(positions), g.constant(Positions.range(constants.store(), n))));
        x = g.add(x, g.slice(g.constant(tokenTypes), 0, 0, 1));
        x = mappingIn.apply(g, embeddingNorm.apply(g, x));
        for (int i = 0; i < LAYERS; i++) {
            Tensor a = attentionNorm.apply(g, g.add(attention.self(g, x, null, false), x));
            Tensor f = ffnOutput.apply(g, g.geluTanh(ffn.apply(g, a)));
            x = fullNorm.apply(g, g.add(f, a));
        }
        return x;
    }
}
