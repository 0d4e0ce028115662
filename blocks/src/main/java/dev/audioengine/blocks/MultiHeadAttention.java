package dev.audioengine.blocks;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.blocks.weights.WeightScope;
import dev.audioengine.blocks.weights.WeightStore;
import java.util.Set;

/**
 * Multi-head attention with grouped key/value heads (H query heads share Hkv ≤ H key/value heads),
 * in self form (queries, keys and values from one sequence; optionally causal; optionally rotary
 * on queries and keys) and cross form (keys and values from an encoder's output, no rotary), as
 * transformers' Llama and Moonshine attention compute it: scale 1/√headDim, output projection of
 * the concatenated heads. The attention itself is lowered by {@link AttentionLowering} from the
 * effective capability set given here.
 * <p>
 * The pieces ({@link #queries}, {@link #keys}, {@link #values}, {@link #attend}, {@link #output})
 * are public for a decoder that keeps keys and values in a cache across steps.
 */
public final class MultiHeadAttention {
    private final Linear q, k, v, o;
    private final Linear qkv; // q, k and v stacked: the self form's three products as one; null when not stacked
    private final int heads, kvHeads, headDim;
    private final Rotary rotary;
    private final Set<Capability> effective;
    private final WeightStore constants;

    /**
     * @param rotary    applied to queries and keys in the self form; null for none
     * @param effective the effective capability set (chooses the attention lowering)
     * @param constants owns the masks and positions the graphs need (the model's weight store)
     */
    public MultiHeadAttention(
            Linear q,
            Linear k,
            Linear v,
            Linear o,
            int heads,
            int kvHeads,
            Rotary rotary,
            Set<Capability> effective,
            WeightStore constants) {
        this(q, k, v, o, null, heads, kvHeads, rotary, effective, constants);
    }

    private MultiHeadAttention(
            Linear q,
            Linear k,
            Linear v,
            Linear o,
            Linear qkv,
            int heads,
            int kvHeads,
            Rotary rotary,
            Set<Capability> effective,
            WeightStore constants) {
        if (heads < 1 || kvHeads < 1 || heads % kvHeads != 0 || q.outFeatures() % heads != 0) {
            throw new IllegalArgumentException(
                    heads + " query heads, " + kvHeads + " kv heads over " + q.outFeatures() + " query features");
        }
        this.headDim = Math.toIntExact(q.outFeatures() / heads);
        if (k.outFeatures() != (long) kvHeads * headDim
                || v.outFeatures() != k.outFeatures()
                || o.inFeatures() != q.outFeatures()
                || k.inFeatures() != v.inFeatures()) {
            throw new IllegalArgumentException("projections do not fit " + heads + " heads and " + kvHeads
                    + " kv heads of " + headDim + ": q " + q.outFeatures() + ", k " + k.outFeatures() + ", v "
                    + v.outFeatures() + ", o in " + o.inFeatures());
        }
        if (rotary != null && rotary.dims() > headDim)
            throw new IllegalArgumentException("rotary of " + rotary.dims() + " > head size " + headDim);
        this.q = q;
        this.k = k;
        this.v = v;
        this.o = o;
        this.qkv = qkv;
        this.heads = heads;
        this.kvHeads = kvHeads;
        this.rotary = rotary;
        this.effective = Set.copyOf(effective);
        this.constants = constants;
    }

    /**
     * Projections named {@code q}, {@code k}, {@code v}, {@code o} under the scope (transformers:
     * q_proj, k_proj, v_proj, o_proj; Moonshine's ONNX export names the output projection dense),
     * each Linear with its bias when the file has one.
     */
    public static MultiHeadAttention load(
            WeightScope scope,
            String qName,
            String kName,
            String vName,
            String oName,
            int heads,
            int kvHeads,
            Rotary rotary,
            Set<Capability> effective) {
        return new MultiHeadAttention(
                Linear.load(scope.child(qName)),
                Linear.load(scope.child(kName)),
                Linear.load(scope.child(vName)),
                Linear.load(scope.child(oName)),
                heads,
                kvHeads,
                rotary,
                effective,
                scope.store());
    }

    /**
     * This attention with its query, key and value weights stacked into one (a copy owned by the weight store, made
     * under {@code key}), so that {@link #project} and the self form take one product where they took three: on a GPU
     * a decoder step's products are paid per launch at a few sequences' width, and this is two fewer a layer. The
     * cross form and the single pieces ({@link #queries}, {@link #keys}, {@link #values}) keep their own weights.
     *
     * @param key names the stacked copy in the store (the layer's weight names)
     * @return the stacked attention; this one, as it is, when the three weights differ in type or input width (a file
     *     may quantize them differently), where the three products stay apart
     */
    public MultiHeadAttention withStackedProjections(String key) {
        if (q.weightType() != k.weightType() || k.weightType() != v.weightType() || q.inFeatures() != k.inFeatures())
            return this;
        return new MultiHeadAttention(
                q, k, v, o, Linear.stacked(constants, key, q, k, v), heads, kvHeads, rotary, effective, constants);
    }

    /** Queries [B, H, T, hd], keys and values [B, Hkv, T, hd] of one sequence batch, as {@link #project} gives them. */
    public record Projections(Tensor queries, Tensor keys, Tensor values) {}

    /**
     * Queries, keys and values of x [B, T, D], the first two rotated when positions are given and the block has a
     * rotary: one product when the weights are stacked ({@link #withStackedProjections}), the three views taken from
     * its heads; three products otherwise.
     */
    public Projections project(GraphBuilder g, Tensor x, Tensor positions) {
        if (qkv == null) return new Projections(queries(g, x, positions), keys(g, x, positions), values(g, x));
        if (x.rank() != 3) throw new IllegalArgumentException("attention wants [B, T, D] sequences, got " + x.shape());
        Tensor all = g.reshape(qkv.apply(g, x), x.dim(0), x.dim(1), heads + 2L * kvHeads, headDim);
        Tensor qh = g.permute(g.slice(all, 2, 0, heads), 0, 2, 1, 3);
        Tensor kh = g.permute(g.slice(all, 2, heads, heads + kvHeads), 0, 2, 1, 3);
        Tensor vh = g.permute(g.slice(all, 2, heads + kvHeads, heads + 2L * kvHeads), 0, 2, 1, 3);
        return new Projections(rotate(g, qh, positions), rotate(g, kh, positions), vh);
    }

    public int heads() {
        return heads;
    }

    public int kvHeads() {
        return kvHeads;
    }

    public int headDim() {
        return headDim;
    }

    /**
     * Self-attention of x [B, T, D]; {@code positions} I32 [T] feed the rotary (ignored without
     * one; null means 0..T−1).
     */
    public Tensor self(GraphBuilder g, Tensor x, Tensor positions, boolean causal) {
        Tensor pos = rotary == null
                ? null
                : positions != null ? positions : g.constant(Positions.range(constants, Math.toIntExact(x.dim(1))));
        Projections p = project(g, x, pos);
        return output(g, attend(g, p.queries(), p.keys(), p.values(), causal));
    }

    /** As {@link #self(GraphBuilder, Tensor, Tensor, boolean)}, not causal, with an additive key mask [Tq, Tk] or [B, 1, Tq, Tk]. */
    public Tensor self(GraphBuilder g, Tensor x, Tensor positions, Tensor mask) {
        Tensor pos = rotary == null
                ? null
                : positions != null ? positions : g.constant(Positions.range(constants, Math.toIntExact(x.dim(1))));
        Projections p = project(g, x, pos);
        return output(g, attend(g, p.queries(), p.keys(), p.values(), mask));
    }

    /** Cross-attention of x [B, Tq, D] over an encoder's output memory [B, Tk, Dm]; no rotary, no mask. */
    public Tensor cross(GraphBuilder g, Tensor x, Tensor memory) {
        return output(g, attend(g, queries(g, x, null), keys(g, memory, null), values(g, memory), false));
    }

    /** [B, H, T, headDim], rotated when positions are given and the block has a rotary. */
    public Tensor queries(GraphBuilder g, Tensor x, Tensor positions) {
        return rotate(g, split(g, q.apply(g, x), heads), positions);
    }

    /** [B, Hkv, T, headDim], rotated when positions are given and the block has a rotary. */
    public Tensor keys(GraphBuilder g, Tensor x, Tensor positions) {
        return rotate(g, split(g, k.apply(g, x), kvHeads), positions);
    }

    /** [B, Hkv, T, headDim]. */
    public Tensor values(GraphBuilder g, Tensor x) {
        return split(g, v.apply(g, x), kvHeads);
    }

    /** Attention of q [B, H, Tq, hd] over k, v [B, Hkv, Tk, hd] → [B, H, Tq, hd]. */
    public Tensor attend(GraphBuilder g, Tensor queries, Tensor keys, Tensor values, boolean causal) {
        return AttentionLowering.apply(
                g, queries, keys, values, (float) (1 / Math.sqrt(headDim)), causal, effective, constants);
    }

    /** As {@link #attend} with an additive mask [Tq, Tk] (a cache's key mask): a cached decoder step. */
    public Tensor attend(GraphBuilder g, Tensor queries, Tensor keys, Tensor values, Tensor mask) {
        return AttentionLowering.apply(
                g, queries, keys, values, mask, (float) (1 / Math.sqrt(headDim)), false, effective, constants);
    }

    /** Heads [B, H, T, hd] concatenated and projected → [B, T, D]. */
    public Tensor output(GraphBuilder g, Tensor attended) {
        Tensor merged = g.permute(attended, 0, 2, 1, 3);
        return o.apply(g, g.reshape(merged, merged.dim(0), merged.dim(1), (long) heads * headDim));
    }

    private Tensor rotate(GraphBuilder g, Tensor x, Tensor positions) {
        return rotary == null || positions == null ? x : rotary.apply(g, x, positions);
    }

    /** [B, T, n·hd] → [B, n, T, hd] (a view). */
    private Tensor split(GraphBuilder g, Tensor x, int n) {
        if (x.rank() != 3) throw new IllegalArgumentException("attention wants [B, T, D] sequences, got " + x.shape());
        return g.permute(g.reshape(x, x.dim(0), x.dim(1), n, headDim), 0, 2, 1, 3);
    }
}
